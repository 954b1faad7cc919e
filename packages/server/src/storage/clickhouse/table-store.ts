import type { ClickHouseSettings } from '@clickhouse/client';
import type { TableCreateResponse, TableRowsResponse } from '@weft/protocol';
import type { TablePut } from '../storage.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { inList, sqlLiteral } from './sql-literal.js';

/** Digests per `IN (…)` query: ~50 bytes each keeps a query near 0.5 MB. */
const DIGESTS_PER_QUERY = 10_000;

/** Table names of the three tables behind datasets. */
export interface TableNames {
  tables: string;
  order: string;
  rows: string;
}

/*
 * Tables are immutable lists of content-addressed rows:
 *
 *   tables(digest, row_count) ──< table_order(table_digest, idx, row_digest) >── table_rows(digest, value)
 *
 * A table's `tables` row is written LAST, so a table that exists has its
 * order and its rows; a put interrupted before that is simply redone. Reads
 * fold duplicates (`any … GROUP BY`), so a table or row written twice reads
 * as once before any merge.
 */
export class ClickHouseTableStore {
  readonly #connection: ClickHouseConnection;
  readonly #names: TableNames;
  readonly #insertSettings: ClickHouseSettings;

  constructor({
    connection,
    names,
    insertSettings,
  }: { connection: ClickHouseConnection; names: TableNames; insertSettings: ClickHouseSettings }) {
    this.#connection = connection;
    this.#names = names;
    this.#insertSettings = insertSettings;
  }

  async put(table: TablePut): Promise<TableCreateResponse> {
    if ((await this.#rowCount(table.project, table.digest)) === undefined) {
      await this.#insertRows(table.project, table.rows);
      await this.#connection.insert(
        this.#names.order,
        table.rowDigests.map((digest, idx) => ({
          project: table.project,
          table_digest: table.digest,
          idx,
          row_digest: digest,
        })),
        this.#insertSettings,
      );
      await this.#connection.insert(
        this.#names.tables,
        [
          {
            project: table.project,
            digest: table.digest,
            row_count: table.rowDigests.length,
            created_at: Date.now(),
          },
        ],
        this.#insertSettings,
      );
    }
    return { digest: table.digest, rowDigests: [...table.rowDigests], rowCount: table.rowDigests.length };
  }

  /** Stores rows not stored yet for the project; returns how many were new (as seen by this replica). */
  async putRows(project: string, rows: TablePut['rows']): Promise<{ stored: number }> {
    return { stored: await this.#insertRows(project, rows) };
  }

  /** The digests of `digests` stored for `project`, in the order asked. */
  async known(project: string, digests: readonly string[]): Promise<string[]> {
    const found = new Set<string>();
    for (let i = 0; i < digests.length; i += DIGESTS_PER_QUERY) {
      const chunk = digests.slice(i, i + DIGESTS_PER_QUERY);
      const rows = await this.#connection.rows<{ digest: string }>(
        `SELECT DISTINCT digest FROM ${this.#names.rows} WHERE project = ${sqlLiteral(project)} AND digest IN ${inList(chunk)}`,
      );
      for (const row of rows) found.add(row.digest);
    }
    return digests.filter((d) => found.has(d));
  }

  async rowDigests(project: string, digest: string): Promise<string[] | undefined> {
    if ((await this.#rowCount(project, digest)) === undefined) return undefined;
    const rows = await this.#order(project, digest, 0, undefined);
    return rows.map((r) => r.row_digest);
  }

  async rows(
    project: string,
    digest: string,
    offset: number,
    limit: number,
  ): Promise<TableRowsResponse | undefined> {
    const rowCount = await this.#rowCount(project, digest);
    if (rowCount === undefined) return undefined;
    const order = await this.#order(project, digest, offset, limit);
    const values = new Map<string, string>();
    const unique = [...new Set(order.map((o) => o.row_digest))];
    for (let i = 0; i < unique.length; i += DIGESTS_PER_QUERY) {
      const rows = await this.#connection.rows<{ digest: string; value: string }>(
        `SELECT digest, any(value) AS value FROM ${this.#names.rows}
         WHERE project = ${sqlLiteral(project)} AND digest IN ${inList(unique.slice(i, i + DIGESTS_PER_QUERY))} GROUP BY digest`,
      );
      for (const row of rows) values.set(row.digest, row.value);
    }
    return {
      digest,
      rowCount,
      offset,
      // A row whose value is missing is left out (`Storage.readTableRows`).
      rows: order.flatMap((o) => {
        const value = values.get(o.row_digest);
        return value === undefined ? [] : [{ digest: o.row_digest, value: JSON.parse(value) }];
      }),
    };
  }

  async #rowCount(project: string, digest: string): Promise<number | undefined> {
    const [row] = await this.#connection.rows<{ row_count: number | string }>(
      `SELECT any(row_count) AS row_count FROM ${this.#names.tables} WHERE project = ${sqlLiteral(project)} AND digest = ${sqlLiteral(digest)} HAVING count() > 0`,
    );
    return row === undefined ? undefined : Number(row.row_count);
  }

  async #order(
    project: string,
    digest: string,
    offset: number,
    limit: number | undefined,
  ): Promise<{ row_digest: string }[]> {
    const upper = limit === undefined ? '' : ` AND idx < ${sqlLiteral(offset + limit)}`;
    return this.#connection.rows<{ row_digest: string }>(`
      SELECT idx, any(row_digest) AS row_digest FROM ${this.#names.order}
      WHERE project = ${sqlLiteral(project)} AND table_digest = ${sqlLiteral(digest)} AND idx >= ${sqlLiteral(offset)}${upper}
      GROUP BY idx ORDER BY idx`);
  }

  async #insertRows(project: string, rows: TablePut['rows']): Promise<number> {
    const unique = [...new Map(rows.map((r) => [r.digest, r])).values()];
    const known = new Set(
      await this.known(
        project,
        unique.map((r) => r.digest),
      ),
    );
    const fresh = unique.filter((r) => !known.has(r.digest));
    await this.#connection.insert(
      this.#names.rows,
      fresh.map((r) => ({ project, digest: r.digest, value: r.canonicalValue })),
      this.#insertSettings,
    );
    return fresh.length;
  }
}
