import type { Database, Statement } from 'better-sqlite3';
import { valueRefsOf } from '../content-refs.js';
import type { StoredValue } from '../stored-value.js';
import { splitRef } from './lifecycle-schema.js';

/** Digests per `IN (…)` lookup (SQLite's default bound on parameters is far above it). */
const CHUNK = 500;

interface ValueRow {
  digest: string;
  is_array: number;
  prev: string | null;
  bytes: Uint8Array;
}

/** Deduplicated call values, once per (project, digest). */
export class SqliteValueStore {
  readonly #db: Database;
  readonly #insert: Statement;
  readonly #putAll: (project: string, values: readonly StoredValue[]) => number;

  constructor(db: Database) {
    this.#db = db;
    this.#insert = db.prepare(
      'INSERT OR IGNORE INTO call_values (project, digest, is_array, prev, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insertRef = db.prepare(
      'INSERT OR IGNORE INTO value_refs (project, kind, target, from_digest) VALUES (?, ?, ?, ?)',
    );
    this.#putAll = db.transaction((project: string, values: readonly StoredValue[]) => {
      const now = Date.now();
      let stored = 0;
      for (const v of values) {
        const { changes } = this.#insert.run(
          project,
          v.digest,
          v.isArray ? 1 : 0,
          v.prev ?? null,
          v.bytes,
          now,
        );
        if (changes === 0) continue;
        stored += changes;
        // What the new value refers to (lifecycle-schema.ts), with it.
        for (const key of valueRefsOf(v.prev, v.bytes)) insertRef.run(project, ...splitRef(key), v.digest);
      }
      return stored;
    });
  }

  put(project: string, values: readonly StoredValue[]): number {
    return this.#putAll(project, values);
  }

  read(project: string, digests: readonly string[]): Map<string, StoredValue> {
    const out = new Map<string, StoredValue>();
    for (const row of this.#select<ValueRow>('digest, is_array, prev, bytes', project, digests)) {
      out.set(row.digest, {
        digest: row.digest,
        isArray: row.is_array === 1,
        prev: row.prev ?? undefined,
        bytes: row.bytes,
      });
    }
    return out;
  }

  known(project: string, digests: readonly string[]): string[] {
    return this.#select<{ digest: string }>('digest', project, digests).map((row) => row.digest);
  }

  #select<T>(columns: string, project: string, digests: readonly string[]): T[] {
    const out: T[] = [];
    for (let i = 0; i < digests.length; i += CHUNK) {
      const chunk = digests.slice(i, i + CHUNK);
      const sql = `SELECT ${columns} FROM call_values WHERE project = ? AND digest IN (${chunk.map(() => '?').join(',')})`;
      out.push(...(this.#db.prepare(sql).all(project, ...chunk) as T[]));
    }
    return out;
  }
}
