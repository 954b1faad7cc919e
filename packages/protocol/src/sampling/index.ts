export { traceSampled } from './trace-sampled.js';
