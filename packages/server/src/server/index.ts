export { type RunningServer, startServer } from './start-server.js';
