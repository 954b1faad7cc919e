export * from './calls.js';
export * from './common.js';
export * from './evaluation.js';
export * from './files.js';
export * from './objects.js';
export * from './query.js';
export * from './tables.js';
