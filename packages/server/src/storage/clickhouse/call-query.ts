import { type CallQueryParsed, type CallQueryResponse, type CallSortField, isRefUri } from '@weft/protocol';
import { attributeTerm } from '../attribute-terms.js';
import { callSortKey, decodeCursor, encodeCursor, type OpSortKey } from '../cursor.js';
import { searchWords } from '../search-text.js';
import { callSearchText, textSnippet } from '../text-snippet.js';
import { attributeTermKey } from './attribute-term-key.js';
import { END, START } from './call-halves.js';
import {
  ATTRIBUTE_TERMS_COLUMN,
  FULL_COLUMNS,
  type FoldedCall,
  KEY_COLUMNS,
  SEARCH_TEXT_COLUMN,
  callFromFolded,
} from './call-columns.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import type { ClickHouseFeedbackStore } from './feedback-store.js';
import { inList, sqlLiteral } from './sql-literal.js';

/** A word as `extractAll` cuts the lower-cased search text (the same classes as `searchWords`). */
const WORD_PATTERN = sqlLiteral('[\\p{L}\\p{N}\\p{Co}]+');

/** The folded sort key of each sort (op name: a tuple, the name then the start time); ties break on `id`. */
const SORT_KEY: Record<CallSortField, string> = {
  startedAt: 'f_started_at',
  latencyMs: 'f_latency_key',
  opName: '(f_op_plain, f_started_at)',
};

/**
 * The start-row column whose newest copy is the folded sort key, for the
 * sorts a window walk can drive (see {@link ClickHouseCallQuery}).
 */
const RAW_SORT_KEY: Partial<Record<CallSortField, string>> = {
  startedAt: 'started_at',
  opName: '(op_plain, started_at)',
};

/** How large the windows of a page's walk are (see {@link ClickHouseCallQuery}). */
export interface CallWindows {
  /** Start rows in the first window of a page of `limit`. */
  first(limit: number): number;
  /** Past this many start rows a window's ids stop travelling as a literal list: the rest is folded at once. */
  max: number;
}

/** The page and room for rejected candidates; lists of up to 20,000 ids. */
const WINDOWS: CallWindows = { first: (limit) => Math.max(4 * (limit + 1), 200), max: 20_000 };

/** A position in sort order: a sort key and the id that breaks its ties. */
interface SortPosition {
  key: SortKeyValue;
  id: string;
}

/** A sort key as queries return it: a number, or the op name and start time. */
type SortKeyValue = number | OpSortKey;

/**
 * Keyset-paged call queries as `Storage.queryCalls` states them (its
 * filters, "Sort keys and cursors", "Text matching"). Folding a call's half-rows (`GROUP BY id`) is what
 * costs: grouping every id of a project took ~1.5 s per 300,000 calls on
 * 18.16. So a page folds only candidates:
 *
 *   1. walk the project's start rows (one row per start copy, no grouping)
 *      in sort order, strictly after the cursor, keeping only rows that pass
 *      NECESSARY conditions (the newest start copy of a matching call passes
 *      them: op, parent, trace, session, attribute terms, time range; ids
 *      with a matching end status, a feedback item, every search word in
 *      some row), LIMIT a window of W rows;
 *   2. fold just the ids of that window, apply the exact filters on the
 *      folded call, and keep those whose folded (key, id) lies inside the
 *      window. A call outside the window has every start copy beyond its
 *      last row, so its folded key too: the window's matches are exactly the
 *      matches in that key range, in order;
 *   3. too few (the exact filters rejected candidates, e.g. a search word
 *      that was only a substring)? Walk the next window, eight times larger;
 *      past {@link CallWindows.max} rows, fold all the rest at once.
 *
 * A latency sort has no such walk (the key mixes both halves), so it folds
 * every call that passes the necessary conditions. Step 3 of the page then
 * reads the full rows (inputs, outputs…) of just the page's ids.
 */
export class ClickHouseCallQuery {
  readonly #connection: ClickHouseConnection;
  readonly #table: string;
  readonly #feedback: ClickHouseFeedbackStore;
  readonly #windows: CallWindows;

  /** `windows` is for tests that make windows tiny to walk many. */
  constructor({
    connection,
    table,
    feedback,
    windows = WINDOWS,
  }: {
    connection: ClickHouseConnection;
    table: string;
    feedback: ClickHouseFeedbackStore;
    windows?: CallWindows;
  }) {
    this.#connection = connection;
    this.#table = table;
    this.#feedback = feedback;
    this.#windows = windows;
  }

  async run(query: CallQueryParsed): Promise<CallQueryResponse> {
    const { field, direction } = query.sort;
    const sortName = `${field}:${direction}`;
    const key = SORT_KEY[field];
    const project = sqlLiteral(query.project);
    /** Selective conditions on start rows, true of the newest start copy of every match. */
    const narrow: string[] = [];
    /** Conditions on start rows too common to narrow a whole-project fold, but free in a window walk. */
    const onStart: string[] = [];
    /** Conditions on an id, true of every half-row of a match. */
    const ofId: string[] = [];
    /** Ids with each search word in some row: necessary, but a long list to build for a common word. */
    const withWords: string[] = [];
    const where = ['f_has_start = 1'];
    const folded: string[] = [];
    if (query.traceId !== undefined) {
      narrow.push(`trace_id = ${sqlLiteral(query.traceId)}`);
      where.push(`f_trace_id = ${sqlLiteral(query.traceId)}`);
    }
    if (query.parentId === null) {
      onStart.push("parent_id = ''");
      where.push("f_parent_id = ''");
    } else if (query.parentId !== undefined) {
      narrow.push(`parent_id = ${sqlLiteral(query.parentId)}`);
      where.push(`f_parent_id = ${sqlLiteral(query.parentId)}`);
    }
    if (query.opName !== undefined) {
      const names = Array.isArray(query.opName) ? query.opName : [query.opName];
      // A ref matches that exact op version; a plain name matches every version.
      const refs = names.filter((n) => isRefUri(n));
      const plain = names.filter((n) => !isRefUri(n));
      const terms: string[] = [];
      const rawTerms: string[] = [];
      if (plain.length > 0) {
        terms.push(`f_op_plain IN ${inList(plain)}`);
        rawTerms.push(`op_plain IN ${inList(plain)}`);
      }
      if (refs.length > 0) {
        terms.push(`f_op_name IN ${inList(refs)}`);
        rawTerms.push(`op_name IN ${inList(refs)}`);
      }
      onStart.push(`(${rawTerms.join(' OR ')})`);
      where.push(`(${terms.join(' OR ')})`);
    }
    if (query.status !== undefined) {
      const statuses = [...new Set(Array.isArray(query.status) ? query.status : [query.status])];
      where.push(`f_status IN ${inList(statuses)}`);
      // A running call has no end row; any other status is that of some end row.
      if (!statuses.includes('running')) {
        ofId.push(
          `id IN (SELECT id FROM ${this.#table} WHERE project = ${project} AND half = ${END} AND status IN ${inList(statuses)})`,
        );
      }
    }
    if (query.startedAfter !== undefined) {
      onStart.push(`started_at >= ${sqlLiteral(query.startedAfter)}`);
      where.push(`f_started_at >= ${sqlLiteral(query.startedAfter)}`);
    }
    if (query.startedBefore !== undefined) {
      onStart.push(`started_at < ${sqlLiteral(query.startedBefore)}`);
      where.push(`f_started_at < ${sqlLiteral(query.startedBefore)}`);
    }
    if (query.sessionId !== undefined) {
      narrow.push(`session_id = ${sqlLiteral(query.sessionId)}`);
      where.push(`f_session_id = ${sqlLiteral(query.sessionId)}`);
    }
    const terms = attributeTermKeys(query);
    if (terms.length > 0) {
      // Narrow by any start copy holding the terms; decide on the newest start's.
      folded.push(ATTRIBUTE_TERMS_COLUMN);
      narrow.push(`hasAll(attr_terms, ${sqlLiteral(terms)})`);
      where.push(`hasAll(f_attr_terms, ${sqlLiteral(terms)})`);
    }
    if (query.feedback !== undefined) ofId.push(this.#feedback.matchingCalls(query.project, query.feedback));
    const words = query.text === undefined ? [] : searchWords(query.text);
    if (words.length > 0) {
      // No full-text index in 18.16: each word (folded) must occur as a whole
      // word of the folded text (a cheap substring test first, then the words).
      folded.push(SEARCH_TEXT_COLUMN);
      for (const word of words) {
        const w = sqlLiteral(word);
        where.push(
          `(positionCaseInsensitiveUTF8(f_search, ${w}) > 0 AND has(extractAll(lowerUTF8(f_search), ${WORD_PATTERN}), ${w}))`,
        );
        // Before folding: ids with the word as a substring of some row's text
        // (a word never spans the folded text's fields: they join with a space).
        withWords.push(this.#idsWithWord(project, w));
      }
    } else if (query.text !== undefined) {
      // Only punctuation: no word, so a substring of the names, ASCII letters
      // folded (the contract's rule; ClickHouse's lower() folds ASCII only).
      const needle = sqlLiteral(query.text.toLowerCase());
      onStart.push(
        `(position(lower(display_name), ${needle}) > 0 OR position(lower(op_plain), ${needle}) > 0)`,
      );
      where.push(
        `(position(lower(f_display_name), ${needle}) > 0 OR position(lower(f_op_plain), ${needle}) > 0)`,
      );
    }
    let cursor: SortPosition | undefined;
    if (query.cursor !== undefined) {
      const position = decodeCursor(query.cursor, sortName);
      cursor = { key: callSortKey(field, position.key), id: position.id };
    }
    const page: Page = { project, key, direction, where, columns: [KEY_COLUMNS, ...folded].join(', ') };
    const rawKey = RAW_SORT_KEY[field];
    const keys =
      rawKey === undefined
        ? await this.#foldRest(page, query.limit + 1, cursor, [
            ...(narrow.length === 0 ? [] : [this.#idsStarting(project, narrow)]),
            ...ofId,
            ...withWords,
          ])
        : await this.#walkWindows(page, {
            count: query.limit + 1,
            cursor,
            rawKey,
            onStart: [...narrow, ...onStart, ...ofId],
            later: withWords,
          });
    const more = keys.length > query.limit;
    const shown = more ? keys.slice(0, query.limit) : keys;
    const pageIds = shown.map((k) => k.id);
    const [calls, feedback] = await Promise.all([
      this.#read(query.project, pageIds),
      this.#feedback.forCalls(query.project, pageIds),
    ]);
    const last = shown.at(-1);
    return {
      calls: shown.flatMap((k) => {
        const row = calls.get(k.id);
        if (row === undefined) return [];
        const call = callFromFolded(query.project, row);
        call.feedback = feedback.get(k.id) ?? [];
        const snippet = words.length === 0 ? undefined : textSnippet(callSearchText(call), words);
        if (snippet !== undefined) call.snippet = snippet;
        return [call];
      }),
      nextCursor:
        more && last
          ? encodeCursor(sortName, { key: sortKeyValue(last.sort_key, field), id: last.id })
          : null,
    };
  }

  /**
   * The first `count` matches after `cursor`, window by window (steps 1–3
   * in the class comment). `onStart` are the necessary conditions, written
   * for a start row; `later` too, but used from the third window on only:
   * the search words' id lists, which cost more to build for a common word
   * than folding two small windows does (a common word fills the page there).
   */
  async #walkWindows(
    page: Page,
    {
      count,
      cursor,
      rawKey,
      onStart: always,
      later,
    }: {
      count: number;
      cursor: SortPosition | undefined;
      rawKey: string;
      onStart: string[];
      later: string[];
    },
  ): Promise<FoldedKey[]> {
    const found: FoldedKey[] = [];
    let after = cursor;
    let size = this.#windows.first(count - 1);
    for (let window = 0; found.length < count; window++) {
      const onStart = window < 2 ? always : [...always, ...later];
      const beyond = after === undefined ? [] : [isAfter(rawKey, after, page.direction)];
      if (size > this.#windows.max) {
        found.push(
          ...(await this.#foldRest(page, count - found.length, after, [
            this.#idsStarting(page.project, [...onStart, ...beyond]),
          ])),
        );
        break;
      }
      const rows = await this.#connection.rows<{ id: string; raw_key: SortKeyValue }>(`
        SELECT id, ${rawKey} AS raw_key FROM ${this.#table}
        WHERE ${[`project = ${page.project}`, `half = ${START}`, ...onStart, ...beyond].join(' AND ')}
        ORDER BY ${rawKey} ${sqlOrder(page.direction)}, id ${sqlOrder(page.direction)} LIMIT ${sqlLiteral(size)}`);
      if (rows.length === 0) break;
      const last = rows.length < size ? undefined : (rows.at(-1) as { id: string; raw_key: SortKeyValue });
      // Inside the window: after its start, and not past its last row unless it reached the end.
      const inside = [
        ...(after === undefined ? [] : [isAfter(page.key, after, page.direction)]),
        ...(last === undefined
          ? []
          : [`NOT ${isAfter(page.key, { key: last.raw_key, id: last.id }, page.direction)}`]),
      ];
      const ids = [...new Set(rows.map((r) => r.id))];
      found.push(...(await this.#fold(page, count - found.length, `id IN ${inList(ids)}`, inside)));
      if (last === undefined) break;
      after = { key: last.raw_key, id: last.id };
      size *= 8;
    }
    return found;
  }

  /** The first `count` matches after `cursor` among the ids passing `ofId`, folding them all. */
  #foldRest(
    page: Page,
    count: number,
    cursor: SortPosition | undefined,
    ofId: string[],
  ): Promise<FoldedKey[]> {
    return this.#fold(
      page,
      count,
      ofId.length === 0 ? '1' : ofId.join(' AND '),
      cursor === undefined ? [] : [isAfter(page.key, cursor, page.direction)],
    );
  }

  /** Folds the rows of the ids passing `ids`, then keeps the first `count` passing the page's filters and `extra`. */
  #fold(page: Page, count: number, ids: string, extra: string[]): Promise<FoldedKey[]> {
    const order = sqlOrder(page.direction);
    return this.#connection.rows<FoldedKey>(`
      SELECT id, ${page.key} AS sort_key FROM (
        SELECT ${page.columns} FROM ${this.#table} WHERE project = ${page.project} AND ${ids} GROUP BY id
      ) WHERE ${[...page.where, ...extra].join(' AND ')}
      ORDER BY ${page.key} ${order}, id ${order} LIMIT ${sqlLiteral(count)}`);
  }

  /** `id IN` the ids with a start row passing `conditions`. */
  #idsStarting(project: string, conditions: string[]): string {
    return `id IN (SELECT id FROM ${this.#table} WHERE project = ${project} AND half = ${START} AND ${conditions.join(' AND ')})`;
  }

  /** `id IN` the ids with `word` (a literal) as a substring of some row's searchable text. */
  #idsWithWord(project: string, word: string): string {
    const columns = ['display_name', 'op_plain', 'search_start', 'search_end'];
    return `id IN (SELECT id FROM ${this.#table} WHERE project = ${project} AND (${columns.map((c) => `positionCaseInsensitiveUTF8(${c}, ${word}) > 0`).join(' OR ')}))`;
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

/** The attribute terms a query asks for: `attributes`, `userId` (`user.id`) and each `tag` (`tags`), all ANDed. */
function attributeTermKeys(query: CallQueryParsed): string[] {
  const pairs: [string, string | number | boolean][] = Object.entries(query.attributes ?? {});
  if (query.userId !== undefined) pairs.push(['user.id', query.userId]);
  for (const tag of query.tag === undefined ? [] : Array.isArray(query.tag) ? query.tag : [query.tag])
    pairs.push(['tags', tag]);
  return pairs.map(([key, value]) => attributeTermKey(key, ...attributeTerm(value)));
}

/** What every fold of one page shares. */
interface Page {
  /** The project as a literal. */
  project: string;
  /** The folded sort column. */
  key: string;
  direction: 'asc' | 'desc';
  /** Exact filters on the folded call. */
  where: string[];
  /** Folded columns the filters read. */
  columns: string;
}

/** A match: its id and folded sort key. */
interface FoldedKey {
  id: string;
  sort_key: SortKeyValue;
}

function sqlOrder(direction: 'asc' | 'desc'): string {
  return direction === 'asc' ? 'ASC' : 'DESC';
}

/** `(key, id)` strictly after `position` in the sort's direction. */
function isAfter(key: string, position: SortPosition, direction: 'asc' | 'desc'): string {
  const op = direction === 'asc' ? '>' : '<';
  const k =
    typeof position.key === 'number'
      ? sqlLiteral(position.key)
      : `tuple(${position.key.map(sqlLiteral).join(', ')})`;
  return `(${key} ${op} ${k} OR (${key} = ${k} AND id ${op} ${sqlLiteral(position.id)}))`;
}

// `inList` moved beside `sqlLiteral`; kept exported here for existing importers.
export { inList };

/** The cursor's key (the contract's shape): a number for times and latency, the name and start time for op names. */
function sortKeyValue(value: SortKeyValue, field: CallSortField): number | OpSortKey {
  if (field !== 'opName') return Number(value);
  const [name, startedAt] = value as OpSortKey;
  return [String(name), Number(startedAt)];
}
