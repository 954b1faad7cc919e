export { registerCallRoutes } from './call-routes.js';
export { registerFileRoutes } from './file-routes.js';
export { canonicalOrReject } from './canonical-or-reject.js';
export { registerObjectRoutes } from './object-routes.js';
export { registerOtlpRoutes } from './otlp-routes.js';
export { registerSystemRoutes } from './system-routes.js';
export { registerTableRoutes } from './table-routes.js';
