import type { Database, Statement } from 'better-sqlite3';
import {
  type CallQueryParsed,
  type CallQueryResponse,
  type CallSortField,
  type CallStatus,
  isRefUri,
} from '@weft/protocol';
import { callSortKey, decodeCursor, encodeCursor } from '../cursor.js';
import {
  DEFAULT_PLAN_BOUNDS,
  fullTextFilter,
  indexedFilters,
  opNameFilter,
  planQuery,
  type QueryPlanBounds,
} from './call-query-plan.js';
import { CALL_COLUMNS, type CallRow, callFromRow } from './call-row.js';
import type { SqliteFeedbackStore } from './feedback-store.js';
import { ftsMatchExpression, MATCH_CLOSE, MATCH_OPEN, snippetParts } from './fts-query.js';

/**
 * The columns each sort field orders by, before `id` (the tie-break); each
 * has an index led by `project` and ending in `id`. Calls of one op follow
 * each other by start time: `calls_op` then takes new calls at the end of
 * their op's run, also when their ids are random (OTLP's, migration 8).
 */
const SORT_COLUMNS: Record<CallSortField, readonly string[]> = {
  startedAt: ['started_at'],
  latencyMs: ['latency_key'],
  opName: ['op_plain', 'started_at'],
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
  readonly #feedback: SqliteFeedbackStore;
  readonly #bounds: QueryPlanBounds;

  constructor(
    db: Database,
    { feedback, bounds = DEFAULT_PLAN_BOUNDS }: { feedback: SqliteFeedbackStore; bounds?: QueryPlanBounds },
  ) {
    this.#db = db;
    this.#feedback = feedback;
    this.#bounds = bounds;
  }

  run(query: CallQueryParsed): CallQueryResponse {
    const { field, direction } = query.sort;
    const sortName = `${field}:${direction}`;
    const columns = SORT_COLUMNS[field];
    const where = ['calls.project = ?', 'has_start = 1'];
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
    const indexed = indexedFilters(query, this.#bounds);
    if (query.opName !== undefined) {
      const names = Array.isArray(query.opName) ? query.opName : [query.opName];
      // A ref matches that exact op version; a plain name matches every version.
      const refs = names.filter((n) => isRefUri(n));
      const plain = names.filter((n) => !isRefUri(n));
      if (refs.length === 0) indexed.push(opNameFilter(query.project, plain, this.#bounds.fewIndexMatches));
      else {
        const terms: string[] = [];
        if (plain.length > 0) {
          terms.push('op_plain IN (SELECT value FROM json_each(?))');
          params.push(JSON.stringify(plain));
        }
        terms.push('op_name IN (SELECT value FROM json_each(?))');
        params.push(JSON.stringify(refs));
        where.push(terms.length === 1 ? (terms[0] as string) : `(${terms.join(' OR ')})`);
      }
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
    if (query.sessionId !== undefined) {
      where.push('session_id = ?');
      params.push(query.sessionId);
    }
    const match = query.text === undefined ? undefined : ftsMatchExpression(query.text);
    if (query.text !== undefined && match === undefined) {
      // Only punctuation: no word for the index, so a substring of the names.
      where.push("(instr(lower(COALESCE(display_name, '')), ?) > 0 OR instr(lower(op_plain), ?) > 0)");
      const needle = query.text.toLowerCase();
      params.push(needle, needle);
    }
    const text = match === undefined ? undefined : fullTextFilter(match, this.#bounds);
    if (text !== undefined) indexed.push(text);
    // The most selective indexed filter drives when it matches few calls;
    // the others (all of them otherwise) are tested per row.
    const { driver, conditions, counts } = planQuery(
      indexed,
      (sql, values) =>
        this.#statement(sql)
          .pluck()
          .get(...values) as number,
    );
    for (const condition of conditions) {
      where.push(condition.sql);
      params.push(...condition.params);
    }
    if (query.cursor !== undefined) {
      const position = decodeCursor(query.cursor, sortName);
      const key = callSortKey(field, position.key);
      where.push(
        `(${columns.join(', ')}, calls.id) ${direction === 'asc' ? '>' : '<'} (${columns.map(() => '?').join(', ')}, ?)`,
      );
      params.push(...(typeof key === 'number' ? [key] : key), position.id);
    }

    const order = direction === 'asc' ? 'ASC' : 'DESC';
    // A trace or a parent's children are few: find them by their index and
    // sort them, rather than walk the whole project in sort order (which is
    // what SQLite picks for `ORDER BY` without statistics). Unary `+` keeps
    // the sort index out of the choice.
    const fewRows =
      query.traceId !== undefined ||
      typeof query.parentId === 'string' ||
      query.sessionId !== undefined ||
      driver !== undefined;
    const orderBy = [...columns, 'calls.id'].map((c) => `${fewRows ? '+' : ''}${c} ${order}`).join(', ');
    // CROSS JOIN keeps SQLite from reordering: the hit list is the outer loop.
    const from =
      driver === undefined
        ? 'calls'
        : `(${driver.hits}) AS hits CROSS JOIN calls ON ${driver.joinOn === 'rowid' ? 'calls.rowid = hits.hit' : 'calls.project = hits.hit_project AND calls.id = hits.hit'}`;
    const sql = `SELECT ${CALL_COLUMNS}, calls.rowid AS row_id, ${columns.map((c, i) => `${c} AS sort_key_${i}`).join(', ')} FROM ${from} WHERE ${where.join(' AND ')}
      ORDER BY ${orderBy} LIMIT ?`;
    if (driver !== undefined) params.unshift(...driver.params);
    // One extra row tells whether another page exists without a second query.
    params.push(query.limit + 1);
    const rows = this.#statement(sql).all(...params) as (CallRow & {
      row_id: number;
      sort_key_0: number | string;
      sort_key_1?: number;
    })[];

    const more = rows.length > query.limit;
    const page = more ? rows.slice(0, query.limit) : rows;
    const last = page.at(-1);
    const feedback = this.#feedback.forCalls(
      query.project,
      page.map((row) => row.id),
    );
    const snippets =
      match === undefined || text === undefined
        ? undefined
        : this.#snippets(
            match,
            page.map((row) => row.row_id),
            (counts.get(text) ?? 0) <= this.#bounds.textSetMatches,
          );
    return {
      calls: page.map((row) => {
        const call = callFromRow(row);
        call.feedback = feedback.get(row.id) ?? [];
        const snippet = snippets?.get(row.row_id);
        if (snippet !== undefined) call.snippet = snippet;
        return call;
      }),
      nextCursor:
        more && last
          ? encodeCursor(sortName, {
              key:
                last.sort_key_1 === undefined ? last.sort_key_0 : [String(last.sort_key_0), last.sort_key_1],
              id: last.id,
            })
          : null,
    };
  }

  /**
   * The highlighted best passage of each page row that matched `match`.
   * `fewMatches` (at most `textSetMatches`): one pass over the matches
   * between the page's lowest and highest rowid, which are then at most that
   * many. Otherwise one full-text lookup per page row: in a long match list
   * a lookup is cheap and a pass is not. Measured at 100,000 calls (loaded):
   * a word in 15,722 calls 0.9 ms by pass, 12 ms by lookups; a word in
   * 99,179 calls 12 ms by pass, 6 ms by lookups.
   */
  #snippets(
    match: string,
    rowIds: readonly number[],
    fewMatches: boolean,
  ): Map<number, { text: string; match: boolean }[]> {
    if (rowIds.length === 0) return new Map();
    const select = `SELECT rowid AS row_id, snippet(calls_fts, -1, '${MATCH_OPEN}', '${MATCH_CLOSE}', '…', 24) AS snippet FROM calls_fts`;
    const ids = JSON.stringify(rowIds);
    // Unary `+` keeps the IN list from becoming one lookup per row.
    const rows = (
      fewMatches
        ? this.#statement(
            `${select} WHERE calls_fts MATCH ? AND rowid BETWEEN ? AND ? AND +rowid IN (SELECT value FROM json_each(?))`,
          ).all(match, Math.min(...rowIds), Math.max(...rowIds), ids)
        : this.#statement(
            `${select} WHERE calls_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
          ).all(match, ids)
    ) as { row_id: number; snippet: string | null }[];
    const byRow = new Map<number, { text: string; match: boolean }[]>();
    for (const row of rows) if (row.snippet) byRow.set(row.row_id, snippetParts(row.snippet));
    return byRow;
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
