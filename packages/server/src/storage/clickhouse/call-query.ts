import {
  type CallQueryParsed,
  type CallQueryResponse,
  type CallSortField,
  isRefUri,
} from '@weft/protocol';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { FULL_COLUMNS, type FoldedCall, KEY_COLUMNS, callFromFolded } from './call-columns.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { sqlLiteral } from './sql-literal.js';

/** The folded column each sort orders by; ties break on `id`, as in SQLite. */
const SORT_KEY: Record<CallSortField, string> = {
  startedAt: 'f_started_at',
  latencyMs: 'f_latency_key',
  opName: 'f_op_plain',
};

/**
 * Keyset-paged call queries with SQLite's semantics (same filters, same
 * order, same cursor). Two steps:
 *
 *   1. fold the project's half-rows by id on the small key columns only,
 *      filter, order by (sort key, id) strictly after the cursor, LIMIT n+1;
 *   2. fold the full rows (inputs, outputs…) of just those ids.
 *
 * Filters on start fields (trace, parent) first narrow the ids with an
 * `IN` over start halves, so a trace's page folds a handful of rows, not the
 * project.
 */
export class ClickHouseCallQuery {
  readonly #connection: ClickHouseConnection;
  readonly #table: string;

  constructor({ connection, table }: { connection: ClickHouseConnection; table: string }) {
    this.#connection = connection;
    this.#table = table;
  }

  async run(query: CallQueryParsed): Promise<CallQueryResponse> {
    const { field, direction } = query.sort;
    const sortName = `${field}:${direction}`;
    const key = SORT_KEY[field];
    const project = sqlLiteral(query.project);
    const narrow: string[] = [];
    const where = ['f_has_start = 1'];
    if (query.traceId !== undefined) {
      narrow.push(`trace_id = ${sqlLiteral(query.traceId)}`);
      where.push(`f_trace_id = ${sqlLiteral(query.traceId)}`);
    }
    if (query.parentId === null) where.push("f_parent_id = ''");
    else if (query.parentId !== undefined) {
      narrow.push(`parent_id = ${sqlLiteral(query.parentId)}`);
      where.push(`f_parent_id = ${sqlLiteral(query.parentId)}`);
    }
    if (query.opName !== undefined) {
      const names = Array.isArray(query.opName) ? query.opName : [query.opName];
      // A ref matches that exact op version; a plain name matches every version.
      const refs = names.filter((n) => isRefUri(n));
      const plain = names.filter((n) => !isRefUri(n));
      const terms: string[] = [];
      if (plain.length > 0) terms.push(`f_op_plain IN ${inList(plain)}`);
      if (refs.length > 0) terms.push(`f_op_name IN ${inList(refs)}`);
      where.push(`(${terms.join(' OR ')})`);
    }
    if (query.status !== undefined) {
      const statuses = [...new Set(Array.isArray(query.status) ? query.status : [query.status])];
      where.push(`f_status IN ${inList(statuses)}`);
    }
    if (query.startedAfter !== undefined) where.push(`f_started_at >= ${sqlLiteral(query.startedAfter)}`);
    if (query.startedBefore !== undefined) where.push(`f_started_at < ${sqlLiteral(query.startedBefore)}`);
    if (query.text !== undefined) {
      // SQLite's lower() folds ASCII only; ClickHouse's lower() too, so both match the same calls.
      const needle = sqlLiteral(query.text.toLowerCase());
      where.push(`(position(lower(f_display_name), ${needle}) > 0 OR position(lower(f_op_plain), ${needle}) > 0)`);
    }
    if (query.cursor !== undefined) {
      const position = decodeCursor(query.cursor, sortName);
      // ClickHouse refuses to compare a number with a string (SQLite orders them), so a
      // forged cursor whose key has the other type is a 400, not a failed query.
      if (typeof position.key !== (field === 'opName' ? 'string' : 'number')) {
        throw new InvalidRequestError([{ path: 'cursor', message: 'not a cursor returned by this server' }], 'query');
      }
      const op = direction === 'asc' ? '>' : '<';
      const k = sqlLiteral(position.key);
      where.push(`(${key} ${op} ${k} OR (${key} = ${k} AND id ${op} ${sqlLiteral(position.id)}))`);
    }
    const order = direction === 'asc' ? 'ASC' : 'DESC';
    const narrowed =
      narrow.length === 0
        ? ''
        : ` AND id IN (SELECT id FROM ${this.#table} WHERE project = ${project} AND half = 1 AND ${narrow.join(' AND ')})`;
    // One extra row tells whether another page exists without a second query.
    const keys = await this.#connection.rows<{ id: string; sort_key: number | string }>(`
      SELECT id, ${key} AS sort_key FROM (
        SELECT ${KEY_COLUMNS} FROM ${this.#table} WHERE project = ${project}${narrowed} GROUP BY id
      ) WHERE ${where.join(' AND ')}
      ORDER BY ${key} ${order}, id ${order} LIMIT ${sqlLiteral(query.limit + 1)}`);
    const more = keys.length > query.limit;
    const page = more ? keys.slice(0, query.limit) : keys;
    const calls = await this.#read(query.project, page.map((k) => k.id));
    const last = page.at(-1);
    return {
      calls: page.flatMap((k) => {
        const call = calls.get(k.id);
        return call ? [callFromFolded(query.project, call)] : [];
      }),
      nextCursor: more && last ? encodeCursor(sortName, { key: sortKeyValue(last.sort_key, field), id: last.id }) : null,
    };
  }

  /** Full folded rows of `ids` whose start has arrived, by id. */
  async #read(project: string, ids: readonly string[]): Promise<Map<string, FoldedCall>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#connection.rows<FoldedCall>(`
      SELECT ${FULL_COLUMNS} FROM ${this.#table}
      WHERE project = ${sqlLiteral(project)} AND id IN ${inList(ids)}
      GROUP BY id HAVING f_has_start = 1`);
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** One call, or undefined when unknown or its start has not arrived. */
  async readOne(project: string, id: string): Promise<FoldedCall | undefined> {
    return (await this.#read(project, [id])).get(id);
  }
}

/** `(a, b, …)` of literals for `IN`. */
export function inList(values: readonly string[]): string {
  return `(${values.map(sqlLiteral).join(', ')})`;
}

/** The cursor keeps the key as SQLite would: a number for times and latency, a string for names. */
function sortKeyValue(value: number | string, field: CallSortField): number | string {
  return field === 'opName' ? String(value) : Number(value);
}
