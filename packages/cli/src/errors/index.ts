export { ServerResponseError } from './server-response-error.js';
export { ServerUnreachableError } from './server-unreachable-error.js';
export { UsageError } from './usage-error.js';
export { TraceNotFoundError } from './trace-not-found-error.js';
