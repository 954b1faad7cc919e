import { ClickHouseStorage } from './clickhouse/clickhouse-storage.js';
import type { ClickHouseStorageOptions } from './clickhouse/clickhouse-storage-options.js';
import { SqliteStorage } from './sqlite/sqlite-storage.js';
import type { Storage } from './storage.js';

/**
 * Where the server keeps its data: what `openStorage` opens, and what the
 * options parse a storage URL into (declared here, below the options, so
 * storage never imports them).
 */
export type StorageTarget =
  | { kind: 'sqlite'; path: string }
  | { kind: 'clickhouse'; options: ClickHouseStorageOptions };

/** Opens the engine a storage URL names (SQLite synchronously, ClickHouse after its migrations). */
export async function openStorage(target: StorageTarget): Promise<Storage> {
  switch (target.kind) {
    case 'sqlite':
      return new SqliteStorage({ path: target.path });
    case 'clickhouse':
      return ClickHouseStorage.open(target.options);
  }
}
