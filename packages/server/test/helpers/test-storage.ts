import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';

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
