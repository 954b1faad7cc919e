export { expandCallValues, expandTraceColumnValues } from './expand-call-values.js';
export { missingValues } from './missing-values.js';
export { resolveValues } from './resolve-values.js';
export { verifyValueItem } from './verify-value-item.js';
export { readStoredValues } from './read-stored-values.js';
