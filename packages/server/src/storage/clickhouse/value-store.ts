import type { ClickHouseSettings } from '@clickhouse/client';
import type { StoredValue } from '../stored-value.js';
import type { ClickHouseConnection, ClickHouseTableTarget } from './clickhouse-connection.js';
import { sqlLiteral } from './sql-literal.js';

/** Digests per `IN (…)` lookup. */
const CHUNK = 1_000;

/**
 * Deduplicated call values, once per (project, digest). Bytes travel as
 * base64 text like file bytes (rows cross HTTP as JSON). A value written
 * twice (a retry) is merged away by the ReplacingMergeTree; reads take
 * `any` row per digest, so they never rely on the merge.
 */
export class ClickHouseValueStore {
  readonly #connection: ClickHouseConnection;
  readonly #table: string;
  readonly #insertSettings: ClickHouseSettings;

  constructor({ connection, table, insertSettings }: ClickHouseTableTarget) {
    this.#connection = connection;
    this.#table = table;
    this.#insertSettings = insertSettings;
  }

  /** Stores the values whose digest is new; returns them. */
  async put(project: string, values: readonly StoredValue[]): Promise<StoredValue[]> {
    // Skipping known digests keeps a re-sent value from adding a row for the merge to remove.
    const seen = new Set(
      await this.known(
        project,
        values.map((v) => v.digest),
      ),
    );
    const fresh = values.filter((v) => !seen.has(v.digest) && seen.add(v.digest) !== undefined);
    if (fresh.length === 0) return [];
    const now = Date.now();
    await this.#connection.insert(
      this.#table,
      fresh.map((v) => ({
        project,
        digest: v.digest,
        is_array: v.isArray ? 1 : 0,
        prev: v.prev ?? '',
        bytes_base64: Buffer.from(v.bytes.buffer, v.bytes.byteOffset, v.bytes.byteLength).toString('base64'),
        created_at: now,
      })),
      this.#insertSettings,
    );
    return fresh;
  }

  async read(project: string, digests: readonly string[]): Promise<Map<string, StoredValue>> {
    const out = new Map<string, StoredValue>();
    const rows = await this.#select<{ digest: string; is_array: number; prev: string; bytes_base64: string }>(
      'digest, any(is_array) AS is_array, any(prev) AS prev, any(bytes_base64) AS bytes_base64',
      project,
      digests,
    );
    for (const row of rows) {
      out.set(row.digest, {
        digest: row.digest,
        isArray: Number(row.is_array) === 1,
        prev: row.prev === '' ? undefined : row.prev,
        bytes: new Uint8Array(Buffer.from(row.bytes_base64, 'base64')),
      });
    }
    return out;
  }

  async known(project: string, digests: readonly string[]): Promise<string[]> {
    return (await this.#select<{ digest: string }>('digest', project, digests)).map((row) => row.digest);
  }

  async #select<T>(columns: string, project: string, digests: readonly string[]): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < digests.length; i += CHUNK) {
      const chunk = digests.slice(i, i + CHUNK);
      out.push(
        ...(await this.#connection.rows<T>(
          `SELECT ${columns} FROM ${this.#table} WHERE project = ${sqlLiteral(project)} AND digest IN (${chunk.map(sqlLiteral).join(',')}) GROUP BY digest`,
        )),
      );
    }
    return out;
  }
}
