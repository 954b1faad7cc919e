export { type AppOptions, createApp } from './create-app.js';
export { errorHandler, toErrorResponse } from './error-handler.js';
export { codeForStatus, ERROR_STATUS } from './error-status.js';
export { routePattern } from './route-pattern.js';
