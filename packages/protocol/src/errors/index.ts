export { NotCanonicalError } from './not-canonical-error.js';
export { InvalidRefError } from './invalid-ref-error.js';
export { WeftError, type WeftErrorOptions } from './weft-error.js';
export { hasCode } from './has-code.js';
export { isWeftErrorCode, WEFT_ERROR_CODES, type WeftErrorCode } from './error-codes.js';
