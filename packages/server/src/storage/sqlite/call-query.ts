import type { Database, Statement } from 'better-sqlite3';
import {
  type CallQueryParsed,
  type CallQueryResponse,
  type CallSortField,
  type CallStatus,
  isRefUri,
} from '@weft/protocol';
import { attributeTerm } from '../attribute-terms.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { CALL_COLUMNS, type CallRow, callFromRow } from './call-row.js';
import type { SqliteFeedbackStore } from './feedback-store.js';
import { ftsMatchExpression, MATCH_CLOSE, MATCH_OPEN, snippetParts } from './fts-query.js';

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
 * A filter matching at most this many calls drives the query: its matches
 * are looked up by id and sorted. Past it, the query walks the sort index and
 * tests each call, which reaches a page of matches quickly exactly because
 * matches are common. (At 100,000 calls, a rare attribute value walked in
 * sort order took a full scan; sorting 5,000 matches takes a few ms.)
 */
const FEW_MATCHES = 5_000;

/** One indexed filter (attribute, feedback, text): its SQL term, parameters and a probe counting its matches. */
interface IndexedFilter {
  where: string;
  params: unknown[];
  probe: string;
}

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

  constructor(db: Database, { feedback }: { feedback: SqliteFeedbackStore }) {
    this.#db = db;
    this.#feedback = feedback;
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
    if (query.sessionId !== undefined) {
      where.push('session_id = ?');
      params.push(query.sessionId);
    }
    const indexed = this.#indexedFilters(query);
    const match = query.text === undefined ? undefined : ftsMatchExpression(query.text);
    if (query.text !== undefined && match === undefined) {
      // Only punctuation: no word for the index, so a substring of the names.
      where.push("(instr(lower(COALESCE(display_name, '')), ?) > 0 OR instr(lower(op_plain), ?) > 0)");
      const needle = query.text.toLowerCase();
      params.push(needle, needle);
    }
    for (const filter of indexed) {
      where.push(filter.where);
      params.push(...filter.params);
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
    const fewRows =
      query.traceId !== undefined ||
      typeof query.parentId === 'string' ||
      query.sessionId !== undefined ||
      indexed.some((filter) => this.#isSelective(filter));
    const orderBy = fewRows ? `+${column} ${order}, +id ${order}` : `${column} ${order}, id ${order}`;
    const sql = `SELECT ${CALL_COLUMNS}, rowid AS row_id, ${column} AS sort_key FROM calls WHERE ${where.join(' AND ')}
      ORDER BY ${orderBy} LIMIT ?`;
    // One extra row tells whether another page exists without a second query.
    params.push(query.limit + 1);
    const rows = this.#statement(sql).all(...params) as (CallRow & { row_id: number; sort_key: number | string })[];

    const more = rows.length > query.limit;
    const page = more ? rows.slice(0, query.limit) : rows;
    const last = page.at(-1);
    const feedback = this.#feedback.forCalls(query.project, page.map((row) => row.id));
    const snippets = match === undefined ? undefined : this.#snippets(match, page.map((row) => row.row_id));
    return {
      calls: page.map((row) => {
        const call = callFromRow(row);
        call.feedback = feedback.get(row.id) ?? [];
        const snippet = snippets?.get(row.row_id);
        if (snippet !== undefined) call.snippet = snippet;
        return call;
      }),
      nextCursor: more && last ? encodeCursor(sortName, { key: last.sort_key, id: last.id }) : null,
    };
  }

  /** The filters answered by an index table: attributes (with `userId`, `tag`), feedback, and full-text search. */
  #indexedFilters(query: CallQueryParsed): IndexedFilter[] {
    const filters: IndexedFilter[] = [];
    const attributes: [string, string | number | boolean][] = Object.entries(query.attributes ?? {});
    if (query.userId !== undefined) attributes.push(['user.id', query.userId]);
    for (const tag of query.tag === undefined ? [] : Array.isArray(query.tag) ? query.tag : [query.tag]) {
      attributes.push(['tags', tag]);
    }
    for (const [key, value] of attributes) {
      const [kind, stored] = attributeTerm(value);
      const from = 'FROM call_attributes WHERE project = ? AND key = ? AND kind = ? AND value = ?';
      const params = [query.project, key, kind, stored];
      filters.push({ where: `id IN (SELECT call_id ${from})`, params, probe: `SELECT 1 ${from} LIMIT ?` });
    }
    if (query.feedback !== undefined) {
      const terms = ['project = ?'];
      const params: unknown[] = [query.project];
      if (query.feedback.name !== undefined) {
        terms.push('name = ?');
        params.push(query.feedback.name);
      }
      if (query.feedback.value !== undefined) {
        const [kind, stored] = attributeTerm(query.feedback.value);
        terms.push('kind = ?', 'value = ?');
        params.push(kind, stored);
      }
      const from = `FROM feedback WHERE ${terms.join(' AND ')}`;
      filters.push({ where: `id IN (SELECT call_id ${from})`, params, probe: `SELECT 1 ${from} LIMIT ?` });
    }
    const match = query.text === undefined ? undefined : ftsMatchExpression(query.text);
    if (match !== undefined) {
      const from = 'FROM calls_fts WHERE calls_fts MATCH ?';
      filters.push({ where: `rowid IN (SELECT rowid ${from})`, params: [match], probe: `SELECT 1 ${from} LIMIT ?` });
    }
    return filters;
  }

  /** Whether a filter matches few enough calls to drive the query (see {@link FEW_MATCHES}). */
  #isSelective(filter: IndexedFilter): boolean {
    const sql = `SELECT COUNT(*) FROM (${filter.probe})`;
    return (this.#statement(sql).pluck().get(...filter.params, FEW_MATCHES + 1) as number) <= FEW_MATCHES;
  }

  /** The highlighted best passage of each page row that matched `match`. */
  #snippets(match: string, rowIds: readonly number[]): Map<number, { text: string; match: boolean }[]> {
    const sql = `SELECT rowid AS row_id, snippet(calls_fts, -1, '${MATCH_OPEN}', '${MATCH_CLOSE}', '…', 24) AS snippet
      FROM calls_fts WHERE calls_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`;
    const rows = this.#statement(sql).all(match, JSON.stringify(rowIds)) as { row_id: number; snippet: string | null }[];
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
