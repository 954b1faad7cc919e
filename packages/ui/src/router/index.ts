export { initialHash } from './initial-route.js';
export { href, navigate, parseRoute, type QueryValue, type Route } from './route.js';
export { useRoute } from './use-route.js';
