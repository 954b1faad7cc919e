export { bodyLimit } from './body-limit.js';
export { requireToken } from './require-token.js';
export { type RequestPart, validate } from './validate.js';
