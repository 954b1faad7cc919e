import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { inject } from 'vitest';
import { parseStorageUrl, type Storage } from '../../src/index.js';
import { openStorage, type StorageTarget } from '../../src/storage/index.js';

/** An engine the API and conformance suites run against. */
export type TestStorageKind = 'sqlite' | 'clickhouse' | 'chdb';

/**
 * Which engine the API suite runs against: `WEFT_TEST_STORAGE`, set by the
 * `server-clickhouse` (clickhouse-server) and `server-chdb` (ClickHouse 26
 * in-process) projects; SQLite otherwise.
 */
export function testStorageKind(): TestStorageKind {
  const kind = process.env.WEFT_TEST_STORAGE;
  return kind === 'clickhouse' || kind === 'chdb' ? kind : 'sqlite';
}

/** A database name no other test uses. */
export function freshDatabaseName(): string {
  return `t_${randomUUID().replaceAll('-', '')}`;
}

/**
 * The storage URL of a fresh, empty store for one test server: a new
 * database on the run's shared ClickHouse, or in this process's chDB folder
 * (chDB binds one folder per process, so every test of a process shares
 * it), or `undefined` for SQLite (the helper then makes a temp file).
 */
export function freshTestStorageUrl(): string | undefined {
  switch (testStorageKind()) {
    case 'sqlite':
      return undefined;
    case 'clickhouse':
      return `clickhouse://${inject('clickhouseHttp')}/${freshDatabaseName()}`;
    case 'chdb':
      return `chdb:${join(inject('chdbRoot'), String(process.pid))}?database=${freshDatabaseName()}`;
  }
}

/**
 * {@link freshTestStorageUrl} for a single server: ClickHouse's completions
 * are handed to online evaluators at once (`settleMs=0`) instead of after
 * the wait that covers other replicas' writes still in flight.
 */
export function freshSingleServerStorageUrl(): string | undefined {
  const url = freshTestStorageUrl();
  if (url === undefined) return undefined;
  return `${url}${url.includes('?') ? '&' : '?'}settleMs=0`;
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
