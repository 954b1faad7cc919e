import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { inject } from 'vitest';
import { parseStorageUrl, SqliteStorage, type Storage } from '../../src/index.js';
import { openStorage } from '../../src/storage/index.js';

/** Which engine the API suite runs against: the `server-clickhouse` project sets `WEFT_TEST_STORAGE=clickhouse`. */
export function testStorageKind(): 'sqlite' | 'clickhouse' {
  return process.env.WEFT_TEST_STORAGE === 'clickhouse' ? 'clickhouse' : 'sqlite';
}

/** A database name no other test uses. */
export function freshDatabaseName(): string {
  return `t_${randomUUID().replaceAll('-', '')}`;
}

/**
 * The storage URL of a fresh, empty store for one test server: a new
 * database on the run's shared ClickHouse, or `undefined` for SQLite (the
 * helper then makes a temp file).
 */
export function freshTestStorageUrl(): string | undefined {
  if (testStorageKind() === 'sqlite') return undefined;
  return `clickhouse://${inject('clickhouseHttp')}/${freshDatabaseName()}`;
}

/** The storage engine for an in-process app (`createApp`): a SQLite file in `dir`, or a fresh ClickHouse database. */
export async function openTestStorage(dir: string): Promise<Storage> {
  const url = freshTestStorageUrl();
  return url === undefined
    ? new SqliteStorage({ path: join(dir, 'weft.db') })
    : openStorage(parseStorageUrl(url));
}
