import type { StorageTarget } from '../options/storage-url.js';
import { ClickHouseStorage } from './clickhouse/clickhouse-storage.js';
import { SqliteStorage } from './sqlite/sqlite-storage.js';
import type { Storage } from './storage.js';

/** Opens the engine a storage URL names (SQLite synchronously, ClickHouse after its migrations). */
export async function openStorage(target: StorageTarget): Promise<Storage> {
  switch (target.kind) {
    case 'sqlite':
      return new SqliteStorage({ path: target.path });
    case 'clickhouse':
      return ClickHouseStorage.open(target.options);
  }
}
