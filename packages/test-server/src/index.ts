export {
  type ProcessExit,
  type ServerProcess,
  type ServerProcessOptions,
  startServerProcess,
} from './start-server-process.js';
export { startTestServer, type TestServer, type TestServerOptions } from './start-test-server.js';
export type { RegisterCleanup } from './register-cleanup.js';
export { tempDir } from './temp-dir.js';
export * from './fake-provider/index.js';
