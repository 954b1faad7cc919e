export { ClickHouseStorage } from './clickhouse-storage.js';
export { type ClickHouseStorageOptions, clickHouseStorageOptions } from './clickhouse-storage-options.js';
export { type SqlValue, sqlLiteral } from './sql-literal.js';
