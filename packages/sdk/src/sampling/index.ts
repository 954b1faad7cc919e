export { ALL_SAMPLED, HeldTrace, type KeepRules, Sampler, type SamplingStats } from './sampler.js';
export { areTraceBitsSampled, isTraceSampled } from './trace-sampled.js';
