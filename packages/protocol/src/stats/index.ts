export { tCritical95, Z_975 } from './t-critical.js';
