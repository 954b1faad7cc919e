export { endStatus } from './call-status.js';
export { type CursorPosition, decodeCursor, encodeCursor } from './cursor.js';
export { ClickHouseStorage, type ClickHouseStorageOptions, sqlLiteral } from './clickhouse/index.js';
export { openStorage, type StorageTarget } from './open-storage.js';
export { plainOpName } from './op-name.js';
export {
  decodeSpanUsage,
  encodeSpanUsage,
  type SpanCallPut,
  type SpanUsage,
  spanUsageOf,
} from './span-usage.js';
export { SqliteStorage, type SqliteStorageOptions } from './sqlite/sqlite-storage.js';
export type { MonitorStorage, ObjectPut, Storage, TablePut, VersionSelector } from './storage.js';
export type { ExpiredTraces, GarbageCollected, LifecycleStorage } from './lifecycle-storage.js';
export { type ContentRefKey, collectContentRefs, valueRefsOf } from './content-refs.js';
export type { LogEntry, MonitorStateStorage, RollupStorage, StateDocument } from './monitor-storage.js';
export * from './rollup/index.js';
export { rollUpUsage, summaryWithUsage, type UsageNode, type UsageTree } from './usage-rollup.js';
export type { StoredValue } from './stored-value.js';
