export { errorHandler, logError, setRetryAfter, toErrorResponse } from './error-handler.js';
export { codeForStatus, ERROR_STATUS } from './error-status.js';
export {
  callParams,
  digestParams,
  feedbackListParams,
  objectParams,
  objectVersionParams,
  projectParams,
  ruleParams,
  ruleRef,
} from './params.js';
export { routePattern } from './route-pattern.js';
