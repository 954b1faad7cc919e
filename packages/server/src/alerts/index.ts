export { AlertService, type AlertServiceOptions } from './alert-service.js';
export { WINDOW_MS } from './alert-metric.js';
