export { answerable, errorHandler, logError, setRetryAfter, toErrorResponse } from './error-handler.js';
export { codeForStatus, ERROR_STATUS } from './error-status.js';
export {
  callParams,
  traceParams,
  digestParams,
  feedbackListParams,
  objectParams,
  objectVersionParams,
  projectParams,
  ruleParams,
  ruleRef,
} from './params.js';
export { routePattern } from './route-pattern.js';
export { type NodeBudget, nodeBudgetOf, setNodeBudget } from './node-budget.js';
export { parseJsonBody, parseMsgpackBody } from './parse-body.js';
export { HandlerLifetime, type HandlerLifetimeListener } from './handler-lifetime.js';
