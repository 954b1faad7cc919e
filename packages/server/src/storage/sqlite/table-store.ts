import type { Database, Statement } from 'better-sqlite3';
import type { TableCreateResponse, TableRowsResponse } from '@weft/protocol';
import type { TablePut } from '../storage.js';
import type { SqliteContentPins } from './content-pins.js';

/*
 * Tables are immutable lists of content-addressed rows:
 *
 *   tables(digest, row_count) ──< table_order(table_digest, idx, row_digest) >── table_rows(digest, value)
 *
 * A row's value is stored once per project however many tables hold it, so an
 * append costs only the new rows' contents plus the order mapping.
 */
export class SqliteTableStore {
  readonly #exists: Statement;
  readonly #digests: Statement;
  readonly #page: Statement;
  readonly #put: (table: TablePut) => void;
  readonly #putRows: (project: string, rows: TablePut['rows']) => number;
  readonly #hasRow: Statement;

  constructor(db: Database, { pins }: { pins: SqliteContentPins }) {
    this.#exists = db.prepare('SELECT row_count FROM tables WHERE project = ? AND digest = ?');
    this.#digests = db
      .prepare('SELECT row_digest FROM table_order WHERE project = ? AND table_digest = ? ORDER BY idx')
      .pluck();
    this.#page = db.prepare(`
      SELECT o.row_digest AS digest, r.value AS value FROM table_order o
      JOIN table_rows r ON r.project = o.project AND r.digest = o.row_digest
      WHERE o.project = ? AND o.table_digest = ? AND o.idx >= ? ORDER BY o.idx LIMIT ?`);
    const insertTable = db.prepare(
      'INSERT OR IGNORE INTO tables (project, digest, row_count, created_at) VALUES (?, ?, ?, ?)',
    );
    const insertRowOnce = db.prepare(
      'INSERT OR IGNORE INTO table_rows (project, digest, value) VALUES (?, ?, ?)',
    );
    // A new row pins the files it names and the call it was made from (content-pins.ts).
    const insertRow = {
      run(project: string, digest: string, value: string): { changes: number } {
        const { changes } = insertRowOnce.run(project, digest, value);
        if (changes > 0) pins.pin(project, value);
        return { changes };
      },
    };
    const insertOrder = db.prepare(
      'INSERT INTO table_order (project, table_digest, idx, row_digest) VALUES (?, ?, ?, ?)',
    );
    this.#hasRow = db.prepare('SELECT 1 FROM table_rows WHERE project = ? AND digest = ?').pluck();
    this.#putRows = db.transaction((project: string, rows: TablePut['rows']) => {
      let stored = 0;
      for (const row of rows) stored += insertRow.run(project, row.digest, row.canonicalValue).changes;
      return stored;
    });
    this.#put = db.transaction((table: TablePut) => {
      const { changes } = insertTable.run(table.project, table.digest, table.rowDigests.length, Date.now());
      if (changes === 0) return;
      for (const row of table.rows) insertRow.run(table.project, row.digest, row.canonicalValue);
      for (const [idx, digest] of table.rowDigests.entries())
        insertOrder.run(table.project, table.digest, idx, digest);
    });
  }

  put(table: TablePut): TableCreateResponse {
    this.#put(table);
    return { digest: table.digest, rowDigests: [...table.rowDigests], rowCount: table.rowDigests.length };
  }

  /** Stores rows without a table, once per (project, digest); returns how many were new. */
  putRows(project: string, rows: TablePut['rows']): { stored: number } {
    return { stored: this.#putRows(project, rows) };
  }

  /**
   * The digests of `digests` stored for `project`, in the order asked. One
   * primary-key probe each (≈ a microsecond): 100,000 digests stay well under
   * a second without building a temporary table.
   */
  known(project: string, digests: readonly string[]): string[] {
    return digests.filter((digest) => this.#hasRow.get(project, digest) !== undefined);
  }

  rowDigests(project: string, digest: string): string[] | undefined {
    if (this.#exists.get(project, digest) === undefined) return undefined;
    return this.#digests.all(project, digest) as string[];
  }

  rows(project: string, digest: string, offset: number, limit: number): TableRowsResponse | undefined {
    const table = this.#exists.get(project, digest) as { row_count: number } | undefined;
    if (table === undefined) return undefined;
    const rows = this.#page.all(project, digest, offset, limit) as { digest: string; value: string }[];
    return {
      digest,
      rowCount: table.row_count,
      offset,
      rows: rows.map((r) => ({ digest: r.digest, value: JSON.parse(r.value) })),
    };
  }
}
