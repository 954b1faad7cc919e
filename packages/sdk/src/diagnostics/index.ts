export { type LoopLag, LoopLagMonitor } from './loop-lag.js';
export { PROBLEM_CHANNEL, type PipelineProblem, resetWarnOnce, Warnings, warnOnce } from './warnings.js';
export { WarningLimiter } from './warning-limiter.js';
