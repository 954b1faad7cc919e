/**
 * @weft/server: the Weft trace server. `startServer` runs it on a port with
 * SQLite storage; `createApp` gives the in-process core for tests and
 * embedding; `Storage` is the contract other engines implement.
 */
export { type AppOptions, createApp } from './app/index.js';
export {
  DigestMismatchError,
  InvalidOptionsError,
  InvalidRequestError,
  ListenError,
  NotFoundError,
  PayloadTooLargeError,
  type RequestIssue,
  StorageClosedError,
  StorageUnavailableError,
  TokenRequiredError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from './errors/index.js';
export { bodyLimit, requireToken, validate } from './middleware/index.js';
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_BODY_NODES,
  isLoopbackHost,
  parseStorageUrl,
  redactStorageUrl,
  type ServerOptions,
  type ServerOptionsParsed,
  type StorageTarget,
  serverOptions,
} from './options/index.js';
export {
  CONTENT_TYPE_PROTOBUF,
  decodeRpcStatus,
  decodeTraceResponse,
  PROJECT_ATTRIBUTE,
  PROJECT_HEADER,
} from './otlp/index.js';
export { type RunningServer, startServer } from './server/index.js';
export { type MigrateOptions, type MigrationProgress, migrateStorage } from './lifecycle/index.js';
export {
  ClickHouseStorage,
  type ClickHouseStorageOptions,
  type ObjectPut,
  openStorage,
  SqliteStorage,
  type SqliteStorageOptions,
  type Storage,
  type TablePut,
  type VersionSelector,
} from './storage/index.js';
export { SERVER_VERSION } from './version/index.js';
