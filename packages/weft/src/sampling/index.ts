export { ALL_SAMPLED, HeldTrace, type KeepRules, Sampler, type SamplingStats } from './sampler.js';
export { isTraceSampled } from './trace-sampled.js';
