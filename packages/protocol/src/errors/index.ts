export { NotCanonicalError } from './not-canonical-error.js';
export { InvalidRefError } from './invalid-ref-error.js';
export { WeftError, type WeftErrorOptions } from './weft-error.js';
