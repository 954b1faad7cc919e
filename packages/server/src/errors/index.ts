export { DigestMismatchError } from './digest-mismatch-error.js';
export { InvalidOptionsError } from './invalid-options-error.js';
export { InvalidRequestError, type RequestIssue } from './invalid-request-error.js';
export { ListenError } from './listen-error.js';
export { NotFoundError } from './not-found-error.js';
export { PayloadTooLargeError } from './payload-too-large-error.js';
export { StorageClosedError } from './storage-closed-error.js';
export { TokenRequiredError } from './token-required-error.js';
export { UnauthorizedError } from './unauthorized-error.js';
