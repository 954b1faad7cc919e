export { SERVER_VERSION } from './server-version.js';
