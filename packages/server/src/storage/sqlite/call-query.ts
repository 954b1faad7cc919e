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
 * A filter matching at most `fewMatches` calls drives the query: its matches
 * are looked up (the hit list joined to calls) and sorted. Past it, the query
 * walks the sort index and tests each call with a correlated EXISTS, which
 * reaches a page of matches quickly exactly because matches are common.
 * Measured at 100,000 calls (a loaded 2-core machine): an attribute matching
 * 50,000 calls took 50+ ms materialized and 0.2 ms as EXISTS; one matching
 * 5,000 took ~65 ms driving and ~25 ms walking. A full-text EXISTS probe
 * costs far more than an index probe, so text drives up to many more
 * matches (a word in 3,000 calls: ~60 ms driving, ~400 ms walking).
 */
const FEW_ATTRIBUTE_MATCHES = 2_000;
const FEW_TEXT_MATCHES = 20_000;

/**
 * One filter answered by an index table (attributes, feedback, full text),
 * in its two forms: `hits`, a SELECT of the matching calls' `hit` (a rowid
 * or an id, see `joinOn`) to drive the query from; and `exists`, a
 * condition correlated with the `calls` row, to test while walking in sort
 * order. Both take `params`.
 */
interface IndexedFilter {
  hits: string;
  /** At most this many matches and the filter drives (see {@link FEW_ATTRIBUTE_MATCHES}). */
  fewMatches: number;
  joinOn: 'rowid' | 'id';
  exists: string;
  params: unknown[];
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
    // The most selective indexed filter drives when it matches few calls;
    // the others (all of them otherwise) are tested per row.
    const driver = this.#driver(indexed);
    for (const filter of indexed) {
      if (filter === driver) continue;
      where.push(filter.exists);
      params.push(...filter.params);
    }
    if (query.cursor !== undefined) {
      const position = decodeCursor(query.cursor, sortName);
      where.push(`(${column}, calls.id) ${direction === 'asc' ? '>' : '<'} (?, ?)`);
      params.push(position.key, position.id);
    }

    const order = direction === 'asc' ? 'ASC' : 'DESC';
    // A trace or a parent's children are few: find them by their index and
    // sort them, rather than walk the whole project in sort order (which is
    // what SQLite picks for `ORDER BY` without statistics). Unary `+` keeps
    // the sort index out of the choice.
    const fewRows =
      query.traceId !== undefined || typeof query.parentId === 'string' || query.sessionId !== undefined || driver !== undefined;
    const orderBy = fewRows ? `+${column} ${order}, +calls.id ${order}` : `${column} ${order}, calls.id ${order}`;
    // CROSS JOIN keeps SQLite from reordering: the hit list is the outer loop.
    const from =
      driver === undefined
        ? 'calls'
        : `(${driver.hits}) AS hits CROSS JOIN calls ON ${driver.joinOn === 'rowid' ? 'calls.rowid = hits.hit' : 'calls.project = hits.hit_project AND calls.id = hits.hit'}`;
    const sql = `SELECT ${CALL_COLUMNS}, calls.rowid AS row_id, ${column} AS sort_key FROM ${from} WHERE ${where.join(' AND ')}
      ORDER BY ${orderBy} LIMIT ?`;
    if (driver !== undefined) params.unshift(...driver.params);
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
      filters.push({
        hits: 'SELECT project AS hit_project, call_id AS hit FROM call_attributes WHERE project = ? AND key = ? AND kind = ? AND value = ?',
        joinOn: 'id',
        fewMatches: FEW_ATTRIBUTE_MATCHES,
        exists:
          'EXISTS (SELECT 1 FROM call_attributes a WHERE a.project = ? AND a.key = ? AND a.kind = ? AND a.value = ? AND a.call_id = calls.id)',
        params: [query.project, key, kind, stored],
      });
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
      const condition = terms.join(' AND ');
      filters.push({
        // DISTINCT: a call with two matching feedbacks is one hit.
        hits: `SELECT DISTINCT project AS hit_project, call_id AS hit FROM feedback WHERE ${condition}`,
        joinOn: 'id',
        fewMatches: FEW_ATTRIBUTE_MATCHES,
        exists: `EXISTS (SELECT 1 FROM feedback f WHERE ${condition.replaceAll(/\b(project|name|kind|value) =/g, 'f.$1 =')} AND f.call_id = calls.id)`,
        params,
      });
    }
    const match = query.text === undefined ? undefined : ftsMatchExpression(query.text);
    if (match !== undefined) {
      filters.push({
        hits: 'SELECT rowid AS hit FROM calls_fts WHERE calls_fts MATCH ?',
        joinOn: 'rowid',
        fewMatches: FEW_TEXT_MATCHES,
        exists: 'EXISTS (SELECT 1 FROM calls_fts f WHERE calls_fts MATCH ? AND f.rowid = calls.rowid)',
        params: [match],
      });
    }
    return filters;
  }

  /** Of the filters matching few calls (each by its own `fewMatches`), the one matching fewest; counting stops past the bound. */
  #driver(filters: readonly IndexedFilter[]): IndexedFilter | undefined {
    let best: IndexedFilter | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    for (const filter of filters) {
      const sql = `SELECT COUNT(*) FROM (${filter.hits} LIMIT ?)`;
      const count = this.#statement(sql).pluck().get(...filter.params, filter.fewMatches + 1) as number;
      if (count <= filter.fewMatches && count < fewest) {
        fewest = count;
        best = filter;
      }
    }
    return best;
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
