import { setTimeout as delay } from 'node:timers/promises';
import { WeftError } from '@weft/protocol';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import type { ClickHouseServer } from './schema-profile.js';
import { sqlLiteral } from './sql-literal.js';

/** How long a deletion waits for ClickHouse to finish rewriting parts before it fails. */
const MUTATION_TIMEOUT_MS = 10 * 60_000;
/** Spacing of the checks of `system.mutations` (18.16 has no synchronous mutations). */
const MUTATION_POLL_MS = 50;

/**
 * Deletes rows so that a read that follows never sees them, on every
 * version the adapter supports:
 *
 * - ClickHouse 23.3 and later: a lightweight `DELETE FROM` (rows masked at
 *   once, removed from disk by later merges); synchronous by default;
 * - 18.16, and any version for a table with projections (`call_list` on
 *   modern servers: a lightweight delete refuses such a table unless told to
 *   rebuild them, which only 24.7 and later can): `ALTER TABLE … DELETE` (a
 *   mutation that rewrites the parts holding the rows, projections
 *   included), then waits until `system.mutations` says it is done.
 *
 * In a cluster each host deletes from its local table (a Distributed table
 * cannot delete).
 */
export class ClickHouseRowDeleter {
  readonly #connection: ClickHouseConnection;
  readonly #database: string;
  readonly #cluster: string | undefined;
  readonly #lightweight: boolean;

  constructor({
    connection,
    database,
    cluster,
    server,
  }: {
    connection: ClickHouseConnection;
    database: string;
    cluster: string | undefined;
    /** What start-up learnt of the server: whether it has the lightweight delete. */
    server: Pick<ClickHouseServer, 'lightweightDeletes'>;
  }) {
    this.#connection = connection;
    this.#database = database;
    this.#cluster = cluster;
    this.#lightweight = server.lightweightDeletes;
  }

  /**
   * Deletes the rows of `table` (its plain name) matching `where` (SQL
   * written with `sqlLiteral`). `projections`: the table may have
   * projections, so the rows go by mutation.
   */
  async delete(table: string, where: string, { projections = false } = {}): Promise<void> {
    const local = this.#cluster === undefined ? table : `${table}_local`;
    const name = `${this.#database}.${local}`;
    if (!projections && this.#lightweight) {
      await this.#connection.commandOnEveryHost(`DELETE FROM ${name} WHERE ${where}`);
      return;
    }
    await this.#connection.commandOnEveryHost(`ALTER TABLE ${name} DELETE WHERE ${where}`);
    await this.#mutationsDone(local);
  }

  async #mutationsDone(table: string): Promise<void> {
    const started = Date.now();
    const sql = `SELECT count() AS n FROM system.mutations WHERE database = ${sqlLiteral(this.#database)} AND table = ${sqlLiteral(table)} AND is_done = 0`;
    for (;;) {
      const pending = await this.#connection.rowsOnEveryHost<{ n: number | string }>(sql);
      if (pending.every((rows) => Number(rows[0]?.n ?? 0) === 0)) return;
      if (Date.now() - started > MUTATION_TIMEOUT_MS) {
        throw new WeftError({
          code: 'WEFT_STORAGE_FAILED',
          message: `ClickHouse has not finished deleting rows of ${table} after ${MUTATION_TIMEOUT_MS / 60_000} minutes; see system.mutations.`,
        });
      }
      await delay(MUTATION_POLL_MS);
    }
  }
}
