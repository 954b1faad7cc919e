export { exceptionInfo } from './exception-info.js';
export { addUsage, usageOf } from './usage.js';
export type { PromiseSettlers, OpOptions } from './op-spec.js';
