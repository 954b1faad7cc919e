import type { Database, Statement } from 'better-sqlite3';
import {
  type CallQueryParsed,
  type CallQueryResponse,
  type CallSortField,
  type CallStatus,
  isRefUri,
} from '@weft/protocol';
import { attributeTerm } from '../attribute-terms.js';
import { callSortKey, decodeCursor, encodeCursor } from '../cursor.js';
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
 * The match counts that choose how each indexed filter is applied; see
 * {@link DEFAULT_PLAN_BOUNDS} for the measurements behind the defaults.
 */
export interface QueryPlanBounds {
  /** An attribute, user, tag, feedback or op-name filter with at most this many matches may drive the query. */
  fewIndexMatches: number;
  /** A full-text filter with at most this many matches may drive the query. */
  fewTextMatches: number;
  /**
   * A full-text filter that does not drive, with at most this many matches,
   * is tested against its match list materialized once; past it, by a
   * full-text probe per row.
   */
  textSetMatches: number;
}

/**
 * A filter matching few calls drives the query: its matches are looked up
 * (the hit list joined to calls) and sorted; each costs a row fetch. Past
 * that, the query walks the sort index and tests each entry; a walk reaches
 * a page of matches after about `limit × calls / matches` entries, so it is
 * fast exactly when matches are common. Measured at 100,000 calls (a loaded
 * 2-core machine): an attribute matching 50,000 calls took 50+ ms driving and
 * 0.2 ms walking; one matching 5,000 took ~65 ms driving and ~25 ms walking.
 * An op-name filter matching 100 calls took ~100 ms walking (every entry
 * fetches its row to read the op) and ~1 ms driving.
 * Full text, walking, has two tests: a probe of the full-text index per row
 * (EXISTS), which costs ~30–300 µs each, or membership of the row's rowid in
 * the match list read once (IN), whose cost grows with the matches
 * (~3 ms for 20,000, ~15 ms for 70,000, ~80 ms for a word in every call).
 * Measured for words in 477 / 960 / 4,985 / 20,163 / 30,939 / 42,091 calls:
 * driving 3 / 5 / 29 / 231 ms; walking with IN 2.3 / 1.8 / 1.8 / 5.2 / 6.5 /
 * 12.3 ms; walking with EXISTS 83 ms at 4,985, 58 at 20,163, 6.7 at 30,939,
 * 6.8 at 42,091. A very rare word still drives: a walk with IN over a word
 * in 10 calls reads the whole sort index.
 */
export const DEFAULT_PLAN_BOUNDS: QueryPlanBounds = {
  fewIndexMatches: 2_000,
  fewTextMatches: 500,
  textSetMatches: 30_000,
};

/**
 * One filter answered by an index (attributes, feedback, full text, op
 * name), in the forms the plan chooses from: `hits`, a SELECT of the
 * matching calls' `hit` (a rowid or an id, see `joinOn`) to drive the query
 * from; `test`, a condition on the `calls` row, to check while walking in
 * sort order; and optionally `member`, a cheaper per-row condition that
 * materializes the match list once, used up to `member.upTo` matches. All
 * take `params`.
 */
interface IndexedFilter {
  hits: string;
  /** At most this many matches and the filter may drive (see {@link DEFAULT_PLAN_BOUNDS}). */
  fewMatches: number;
  joinOn: 'rowid' | 'id';
  test: string;
  member?: { sql: string; upTo: number };
  params: unknown[];
}

/** How the indexed filters of one query are applied: at most one drives, each other one adds its condition. */
interface QueryPlan {
  driver: IndexedFilter | undefined;
  conditions: { sql: string; params: unknown[] }[];
  /** Each filter's matches, counted up to just past its largest bound. */
  counts: ReadonlyMap<IndexedFilter, number>;
}

/**
 * A filter by plain op names (every version of each), driving from the index
 * `calls_op` when the names are rare. Walking the sort index instead fetches
 * every call's row to read its op, and rows carry their inputs and outputs.
 */
function opNameFilter(project: string, names: readonly string[], fewMatches: number): IndexedFilter {
  return {
    hits: 'SELECT rowid AS hit FROM calls WHERE project = ? AND op_plain IN (SELECT value FROM json_each(?))',
    joinOn: 'rowid',
    fewMatches,
    test: '(calls.project = ? AND op_plain IN (SELECT value FROM json_each(?)))',
    params: [project, JSON.stringify(names)],
  };
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
    const indexed = this.#indexedFilters(query);
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
    const text = match === undefined ? undefined : this.#fullTextFilter(match);
    if (text !== undefined) indexed.push(text);
    // The most selective indexed filter drives when it matches few calls;
    // the others (all of them otherwise) are tested per row.
    const { driver, conditions, counts } = this.#plan(indexed);
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

  /** The filters answered by an index table: attributes (with `userId`, `tag`) and feedback. */
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
        // Attribute rows name their call by rowid (migration 7).
        hits: 'SELECT call_row AS hit FROM call_attributes WHERE project = ? AND key = ? AND kind = ? AND value = ?',
        joinOn: 'rowid',
        fewMatches: this.#bounds.fewIndexMatches,
        test: 'EXISTS (SELECT 1 FROM call_attributes a WHERE a.project = ? AND a.key = ? AND a.kind = ? AND a.value = ? AND a.call_row = calls.rowid)',
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
        fewMatches: this.#bounds.fewIndexMatches,
        test: `EXISTS (SELECT 1 FROM feedback f WHERE ${condition.replaceAll(/\b(project|name|kind|value) =/g, 'f.$1 =')} AND f.call_id = calls.id)`,
        params,
      });
    }
    return filters;
  }

  /** Full-text search for `match` (see {@link ftsMatchExpression}). */
  #fullTextFilter(match: string): IndexedFilter {
    return {
      hits: 'SELECT rowid AS hit FROM calls_fts WHERE calls_fts MATCH ?',
      joinOn: 'rowid',
      fewMatches: this.#bounds.fewTextMatches,
      test: 'EXISTS (SELECT 1 FROM calls_fts f WHERE calls_fts MATCH ? AND f.rowid = calls.rowid)',
      // Not correlated, so SQLite reads the match list once; the sort
      // indexes hold the rowid, so a walk tests it before fetching the row.
      member: {
        sql: 'calls.rowid IN (SELECT rowid FROM calls_fts WHERE calls_fts MATCH ?)',
        upTo: this.#bounds.textSetMatches,
      },
      params: [match],
    };
  }

  /**
   * Counts each filter's matches (stopping past the largest bound that
   * matters for it): of the filters matching few calls (each by its own
   * `fewMatches`) the one matching fewest drives; each other one is tested
   * per row, by `member` when it has one and few enough matches.
   */
  #plan(filters: readonly IndexedFilter[]): QueryPlan {
    const counted = filters.map((filter) => {
      const bound = Math.max(filter.fewMatches, filter.member?.upTo ?? 0);
      const sql = `SELECT COUNT(*) FROM (${filter.hits} LIMIT ?)`;
      return {
        filter,
        count: this.#statement(sql)
          .pluck()
          .get(...filter.params, bound + 1) as number,
      };
    });
    let driver: IndexedFilter | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    for (const { filter, count } of counted) {
      if (count <= filter.fewMatches && count < fewest) {
        fewest = count;
        driver = filter;
      }
    }
    const conditions = counted
      .filter(({ filter }) => filter !== driver)
      .map(({ filter, count }) => ({
        sql: filter.member !== undefined && count <= filter.member.upTo ? filter.member.sql : filter.test,
        params: filter.params,
      }));
    return { driver, conditions, counts: new Map(counted.map(({ filter, count }) => [filter, count])) };
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
