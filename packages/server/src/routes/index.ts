export { registerCallRoutes } from './call-routes.js';
export { registerFeedbackRoutes } from './feedback-routes.js';
export { registerFileRoutes } from './file-routes.js';
export { canonicalOrReject } from './canonical-or-reject.js';
export { registerObjectRoutes } from './object-routes.js';
export { registerSessionRoutes } from './session-routes.js';
export { registerSystemRoutes } from './system-routes.js';
export { registerTableRoutes } from './table-routes.js';
