import type { Database, Statement } from 'better-sqlite3';
import {
  type CallQueryParsed,
  type CallQueryResponse,
  type CallSortField,
  type CallStatus,
  isRefUri,
} from '@weft/protocol';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { CALL_COLUMNS, type CallRow, callFromRow } from './call-row.js';

/** The column each sort field orders by; each has an index led by `project` and ending in `id`. */
const SORT_COLUMN: Record<CallSortField, string> = {
  startedAt: 'started_at',
  latencyMs: 'latency_key',
  opName: 'op_plain',
};

/** The only strings a status filter may put into SQL text. */
const STATUS_LITERAL: Record<CallStatus, string> = { running: 'running', success: 'success', error: 'error' };

/** Upper bound on distinct statement shapes kept prepared; shapes depend only on which filters are present. */
const MAX_CACHED_STATEMENTS = 512;

/**
 * Keyset-paged call queries. A page is "rows strictly after the cursor's
 * (sort key, id) in the sort order": rows inserted between pages land either
 * before the cursor (not seen, as in any snapshot) or after it (seen once),
 * so no existing row is skipped or repeated. Lists are passed as JSON arrays
 * through `json_each`, so the SQL text depends only on which filters are used.
 */
export class SqliteCallQuery {
  readonly #db: Database;
  readonly #statements = new Map<string, Statement>();

  constructor(db: Database) {
    this.#db = db;
  }

  run(query: CallQueryParsed): CallQueryResponse {
    const { field, direction } = query.sort;
    const sortName = `${field}:${direction}`;
    const column = SORT_COLUMN[field];
    const where = ['project = ?', 'has_start = 1'];
    const params: unknown[] = [query.project];

    if (query.traceId !== undefined) {
      where.push('trace_id = ?');
      params.push(query.traceId);
    }
    if (query.parentId === null) where.push('parent_id IS NULL');
    else if (query.parentId !== undefined) {
      where.push('parent_id = ?');
      params.push(query.parentId);
    }
    if (query.opName !== undefined) {
      const names = Array.isArray(query.opName) ? query.opName : [query.opName];
      // A ref matches that exact op version; a plain name matches every version.
      const refs = names.filter((n) => isRefUri(n));
      const plain = names.filter((n) => !isRefUri(n));
      const terms: string[] = [];
      if (plain.length > 0) {
        terms.push('op_plain IN (SELECT value FROM json_each(?))');
        params.push(JSON.stringify(plain));
      }
      if (refs.length > 0) {
        terms.push('op_name IN (SELECT value FROM json_each(?))');
        params.push(JSON.stringify(refs));
      }
      where.push(terms.length === 1 ? (terms[0] as string) : `(${terms.join(' OR ')})`);
    }
    if (query.status !== undefined) {
      // Literals, not parameters, so SQLite can use the partial index of
      // failed calls; the values are the validated `callStatus` enum.
      const statuses = [...new Set(Array.isArray(query.status) ? query.status : [query.status])];
      const literals = statuses.map((s) => `'${STATUS_LITERAL[s]}'`);
      where.push(literals.length === 1 ? `status = ${literals[0]}` : `status IN (${literals.join(', ')})`);
    }
    if (query.startedAfter !== undefined) {
      where.push('started_at >= ?');
      params.push(query.startedAfter);
    }
    if (query.startedBefore !== undefined) {
      where.push('started_at < ?');
      params.push(query.startedBefore);
    }
    if (query.text !== undefined) {
      where.push("(instr(lower(COALESCE(display_name, '')), ?) > 0 OR instr(lower(op_plain), ?) > 0)");
      const needle = query.text.toLowerCase();
      params.push(needle, needle);
    }
    if (query.cursor !== undefined) {
      const position = decodeCursor(query.cursor, sortName);
      where.push(`(${column}, id) ${direction === 'asc' ? '>' : '<'} (?, ?)`);
      params.push(position.key, position.id);
    }

    const order = direction === 'asc' ? 'ASC' : 'DESC';
    // A trace or a parent's children are few: find them by their index and
    // sort them, rather than walk the whole project in sort order (which is
    // what SQLite picks for `ORDER BY` without statistics). Unary `+` keeps
    // the sort index out of the choice.
    const fewRows = query.traceId !== undefined || typeof query.parentId === 'string';
    const orderBy = fewRows ? `+${column} ${order}, +id ${order}` : `${column} ${order}, id ${order}`;
    const sql = `SELECT ${CALL_COLUMNS}, ${column} AS sort_key FROM calls WHERE ${where.join(' AND ')}
      ORDER BY ${orderBy} LIMIT ?`;
    // One extra row tells whether another page exists without a second query.
    params.push(query.limit + 1);
    const rows = this.#statement(sql).all(...params) as (CallRow & { sort_key: number | string })[];

    const more = rows.length > query.limit;
    const page = more ? rows.slice(0, query.limit) : rows;
    const last = page.at(-1);
    return {
      calls: page.map(callFromRow),
      nextCursor: more && last ? encodeCursor(sortName, { key: last.sort_key, id: last.id }) : null,
    };
  }

  #statement(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) this.#statements.clear();
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}
