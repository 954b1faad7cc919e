import type { ClickHouseSettings } from '@clickhouse/client';
import type { ClickHouseConnection, ClickHouseTableTarget } from './clickhouse-connection.js';
import { sqlLiteral } from './sql-literal.js';

/**
 * Content-addressed file bytes, once per (project, digest). Bytes travel as
 * base64 text because rows cross HTTP as JSON; ClickHouse's compression
 * takes back most of the 4/3 growth on disk.
 */
export class ClickHouseFileStore {
  readonly #connection: ClickHouseConnection;
  readonly #table: string;
  readonly #insertSettings: ClickHouseSettings;

  constructor({ connection, table, insertSettings }: ClickHouseTableTarget) {
    this.#connection = connection;
    this.#table = table;
    this.#insertSettings = insertSettings;
  }

  async put(project: string, digest: string, bytes: Uint8Array): Promise<{ created: boolean }> {
    if (await this.#exists(project, digest)) return { created: false };
    await this.#connection.insert(
      this.#table,
      [
        {
          project,
          digest,
          size: bytes.byteLength,
          bytes_base64: Buffer.from(bytes).toString('base64'),
          created_at: Date.now(),
        },
      ],
      this.#insertSettings,
    );
    return { created: true };
  }

  async read(project: string, digest: string): Promise<Uint8Array | undefined> {
    const [row] = await this.#connection.rows<{ bytes_base64: string }>(
      `SELECT any(bytes_base64) AS bytes_base64 FROM ${this.#table} WHERE project = ${sqlLiteral(project)} AND digest = ${sqlLiteral(digest)} HAVING count() > 0`,
    );
    return row === undefined ? undefined : new Uint8Array(Buffer.from(row.bytes_base64, 'base64'));
  }

  async #exists(project: string, digest: string): Promise<boolean> {
    const rows = await this.#connection.rows<{ n: number }>(
      `SELECT 1 AS n FROM ${this.#table} WHERE project = ${sqlLiteral(project)} AND digest = ${sqlLiteral(digest)} LIMIT 1`,
    );
    return rows.length > 0;
  }
}
