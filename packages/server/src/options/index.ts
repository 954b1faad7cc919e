export { isLoopbackHost } from './is-loopback.js';
export {
  bearerToken,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_BODY_NODES,
  type LogStream,
  logLevel,
  parseServerOptions,
  projectTokens,
  type ServerOptions,
  type ServerOptionsParsed,
  serverOptions,
} from './server-options.js';
export { readTokensFile } from './tokens-file.js';
export {
  parseStorageUrl,
  redactStorageUrl,
  type StorageCredentials,
  type StorageTarget,
} from './storage-url.js';
export { mergeProjectTokens } from './merge-project-tokens.js';
export {
  type MonitoringOptions,
  type MonitoringOptionsParsed,
  monitoringOptions,
} from './monitoring-options.js';
