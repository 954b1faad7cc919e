export { BatchFill, type BatchLimits, batchesOf, DEFAULT_MAX_BATCH_ITEMS } from './batch-fill.js';
