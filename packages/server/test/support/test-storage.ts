import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { inject } from 'vitest';
import { parseStorageUrl, type Storage } from '../../src/index.js';
import { openStorage, type StorageTarget } from '../../src/storage/index.js';

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

/**
 * Where a fresh, empty store of the engine under test lives: a SQLite file
 * in `dir`, or a new database on the run's ClickHouse. Open it as often as
 * needed: every `openStorage` of it is another instance over the same data.
 */
export function freshTestStorageTarget(dir: string): StorageTarget {
  const url = freshTestStorageUrl();
  return url === undefined ? { kind: 'sqlite', path: join(dir, 'weft.db') } : parseStorageUrl(url);
}

/** The storage engine for an in-process app (`createApp`): a SQLite file in `dir`, or a fresh ClickHouse database. */
export async function openTestStorage(dir: string): Promise<Storage> {
  return openStorage(freshTestStorageTarget(dir));
}
