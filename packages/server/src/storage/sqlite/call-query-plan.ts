import type { CallQueryParsed } from '@weft/protocol';
import { attributeTerm } from '../attribute-terms.js';
import { isSharedTermKey, TERM_SET_KEY, TERM_SET_KIND } from './term-sets.js';

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
export interface IndexedFilter {
  hits: string;
  /** At most this many matches and the filter may drive (see {@link DEFAULT_PLAN_BOUNDS}). */
  fewMatches: number;
  joinOn: 'rowid' | 'id';
  test: string;
  member?: { sql: string; upTo: number };
  params: unknown[];
}

/** How the indexed filters of one query are applied: at most one drives, each other one adds its condition. */
export interface QueryPlan {
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
export function opNameFilter(project: string, names: readonly string[], fewMatches: number): IndexedFilter {
  return {
    hits: 'SELECT rowid AS hit FROM calls WHERE project = ? AND op_plain IN (SELECT value FROM json_each(?))',
    joinOn: 'rowid',
    fewMatches,
    test: '(calls.project = ? AND op_plain IN (SELECT value FROM json_each(?)))',
    params: [project, JSON.stringify(names)],
  };
}

/** The filters answered by an index table: attributes (with `userId`, `tag`) and feedback. */
export function indexedFilters(query: CallQueryParsed, bounds: QueryPlanBounds): IndexedFilter[] {
  const filters: IndexedFilter[] = [];
  const attributes: [string, string | number | boolean][] = Object.entries(query.attributes ?? {});
  if (query.userId !== undefined) attributes.push(['user.id', query.userId]);
  for (const tag of query.tag === undefined ? [] : Array.isArray(query.tag) ? query.tag : [query.tag]) {
    attributes.push(['tags', tag]);
  }
  for (const [key, value] of attributes) {
    const [kind, stored] = attributeTerm(value);
    filters.push(attributeFilter(query.project, key, kind, stored, bounds));
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
      fewMatches: bounds.fewIndexMatches,
      test: `EXISTS (SELECT 1 FROM feedback f WHERE ${condition.replaceAll(/\b(project|name|kind|value) =/g, 'f.$1 =')} AND f.call_id = calls.id)`,
      params,
    });
  }
  return filters;
}

/** A call's own attribute term (attribute rows name their call by rowid, migration 7). */
const OWN_TERM_HITS =
  'SELECT call_row AS hit FROM call_attributes WHERE project = ? AND key = ? AND kind = ? AND value = ?';
const OWN_TERM_TEST =
  'EXISTS (SELECT 1 FROM call_attributes a WHERE a.project = ? AND a.key = ? AND a.kind = ? AND a.value = ? AND a.call_row = calls.rowid)';
/** The calls whose term set (term-sets.ts) holds the term: the sets, then each set's row per call. */
const SET_TERM_HITS = `SELECT a.call_row AS hit FROM call_term_sets s CROSS JOIN call_attributes a
  ON a.project = s.project AND a.key = '${TERM_SET_KEY}' AND a.kind = '${TERM_SET_KIND}' AND a.value = s.term_set
  WHERE s.project = ? AND s.key = ? AND s.kind = ? AND s.value = ?`;
const SET_TERM_TEST = `EXISTS (SELECT 1 FROM call_term_sets s CROSS JOIN call_attributes a
  ON a.project = s.project AND a.key = '${TERM_SET_KEY}' AND a.kind = '${TERM_SET_KIND}' AND a.value = s.term_set
  WHERE s.project = ? AND s.key = ? AND s.kind = ? AND s.value = ? AND a.call_row = calls.rowid)`;

/**
 * Attribute equality. A key whose terms are shared (`isSharedTermKey`)
 * matches a call by its term set or, for calls stored before sets
 * existed, by its own term; a call has one or the other, never both.
 */
function attributeFilter(
  project: string,
  key: string,
  kind: string,
  value: string | number,
  bounds: QueryPlanBounds,
): IndexedFilter {
  const term = [project, key, kind, value];
  if (!isSharedTermKey(key)) {
    return {
      hits: OWN_TERM_HITS,
      joinOn: 'rowid',
      fewMatches: bounds.fewIndexMatches,
      test: OWN_TERM_TEST,
      params: term,
    };
  }
  return {
    hits: `${OWN_TERM_HITS} UNION ALL ${SET_TERM_HITS}`,
    joinOn: 'rowid',
    fewMatches: bounds.fewIndexMatches,
    test: `(${OWN_TERM_TEST} OR ${SET_TERM_TEST})`,
    params: [...term, ...term],
  };
}

/** Full-text search for `match` (what `ftsMatchExpression` in fts-query.ts made of the text). */
export function fullTextFilter(match: string, bounds: QueryPlanBounds): IndexedFilter {
  return {
    hits: 'SELECT rowid AS hit FROM calls_fts WHERE calls_fts MATCH ?',
    joinOn: 'rowid',
    fewMatches: bounds.fewTextMatches,
    test: 'EXISTS (SELECT 1 FROM calls_fts f WHERE calls_fts MATCH ? AND f.rowid = calls.rowid)',
    // Not correlated, so SQLite reads the match list once; the sort
    // indexes hold the rowid, so a walk tests it before fetching the row.
    member: {
      sql: 'calls.rowid IN (SELECT rowid FROM calls_fts WHERE calls_fts MATCH ?)',
      upTo: bounds.textSetMatches,
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
export function planQuery(
  filters: readonly IndexedFilter[],
  countHits: (sql: string, params: readonly unknown[]) => number,
): QueryPlan {
  const counted = filters.map((filter) => {
    const bound = Math.max(filter.fewMatches, filter.member?.upTo ?? 0);
    const sql = `SELECT COUNT(*) FROM (${filter.hits} LIMIT ?)`;
    return { filter, count: countHits(sql, [...filter.params, bound + 1]) };
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
