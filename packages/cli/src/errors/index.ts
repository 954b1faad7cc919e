export { CallNotFoundError } from './call-not-found-error.js';
export { OutlineBudgetError } from './outline-budget-error.js';
export { ServerResponseError } from './server-response-error.js';
export { ServerUnreachableError } from './server-unreachable-error.js';
export { TraceNotFoundError } from './trace-not-found-error.js';
export { UsageError } from './usage-error.js';
