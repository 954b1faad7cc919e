export { bundleScript, type ChildRun, type RunChildOptions, runChild } from './child-process.js';
export {
  FaultProxy,
  type FaultProxyOptions,
  INJECTED_ERROR_CODE,
  type InjectedResponse,
  type ProxyCounters,
  type ReceivedRequest,
} from './fault-proxy.js';
export { nextMessage } from './next-message.js';
export { duplicateIds, listServerCalls } from './server-calls.js';
export { type FileServer, useFileServer } from './file-server.js';
export { seededText } from './seeded-text.js';
