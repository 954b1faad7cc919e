import {
  type CallQueryParsed,
  type CallQueryResponse,
  type CallSortField,
  isRefUri,
} from '@weft/protocol';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import { attributeTerm } from '../attribute-terms.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { searchWords } from '../search-text.js';
import { attributeTermKey } from './attribute-term-key.js';
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
import { textSnippet } from './text-snippet.js';

/** A word as `extractAll` cuts the lower-cased search text (the same classes as `searchWords`). */
const WORD_PATTERN = sqlLiteral('[\\p{L}\\p{N}\\p{Co}]+');

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
  readonly #feedback: ClickHouseFeedbackStore;

  constructor({ connection, table, feedback }: { connection: ClickHouseConnection; table: string; feedback: ClickHouseFeedbackStore }) {
    this.#connection = connection;
    this.#table = table;
    this.#feedback = feedback;
  }

  async run(query: CallQueryParsed): Promise<CallQueryResponse> {
    const { field, direction } = query.sort;
    const sortName = `${field}:${direction}`;
    const key = SORT_KEY[field];
    const project = sqlLiteral(query.project);
    const narrow: string[] = [];
    /** Conditions on an id, true of every half-row of a call (tested before folding). */
    const ofId: string[] = [];
    const where = ['f_has_start = 1'];
    const folded: string[] = [];
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
    const words = query.text === undefined ? [] : searchWords(query.text).map((w) => w.toLowerCase());
    if (words.length > 0) {
      // No full-text index in 18.16: each word must occur as a whole word,
      // case-insensitively (a cheap substring test first, then the words).
      folded.push(SEARCH_TEXT_COLUMN);
      for (const word of words) {
        const w = sqlLiteral(word);
        where.push(`(positionCaseInsensitiveUTF8(f_search, ${w}) > 0 AND has(extractAll(lowerUTF8(f_search), ${WORD_PATTERN}), ${w}))`);
      }
    } else if (query.text !== undefined) {
      // Only punctuation: no word, so a substring of the names, as SQLite does.
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
      (narrow.length === 0
        ? ''
        : ` AND id IN (SELECT id FROM ${this.#table} WHERE project = ${project} AND half = 1 AND ${narrow.join(' AND ')})`) +
      ofId.map((condition) => ` AND ${condition}`).join('');
    const columns = [KEY_COLUMNS, ...folded].join(', ');
    // One extra row tells whether another page exists without a second query.
    const keys = await this.#connection.rows<{ id: string; sort_key: number | string }>(`
      SELECT id, ${key} AS sort_key FROM (
        SELECT ${columns} FROM ${this.#table} WHERE project = ${project}${narrowed} GROUP BY id
      ) WHERE ${where.join(' AND ')}
      ORDER BY ${key} ${order}, id ${order} LIMIT ${sqlLiteral(query.limit + 1)}`);
    const more = keys.length > query.limit;
    const page = more ? keys.slice(0, query.limit) : keys;
    const pageIds = page.map((k) => k.id);
    const [calls, feedback] = await Promise.all([
      this.#read(query.project, pageIds, words.length > 0),
      this.#feedback.forCalls(query.project, pageIds),
    ]);
    const last = page.at(-1);
    return {
      calls: page.flatMap((k) => {
        const row = calls.get(k.id);
        if (row === undefined) return [];
        const call = callFromFolded(query.project, row);
        call.feedback = feedback.get(k.id) ?? [];
        const snippet = row.f_search === undefined ? undefined : textSnippet(row.f_search, words);
        if (snippet !== undefined) call.snippet = snippet;
        return [call];
      }),
      nextCursor: more && last ? encodeCursor(sortName, { key: sortKeyValue(last.sort_key, field), id: last.id }) : null,
    };
  }

  /** Full folded rows of `ids` whose start has arrived, by id (with their search text when asked). */
  async #read(project: string, ids: readonly string[], withText = false): Promise<Map<string, FoldedCall & { f_search?: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#connection.rows<FoldedCall & { f_search?: string }>(`
      SELECT ${FULL_COLUMNS}${withText ? `, ${SEARCH_TEXT_COLUMN}` : ''} FROM ${this.#table}
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
  for (const tag of query.tag === undefined ? [] : Array.isArray(query.tag) ? query.tag : [query.tag]) pairs.push(['tags', tag]);
  return pairs.map(([key, value]) => attributeTermKey(key, ...attributeTerm(value)));
}

// `inList` moved beside `sqlLiteral`; kept exported here for existing importers.
export { inList };

/** The cursor keeps the key as SQLite would: a number for times and latency, a string for names. */
function sortKeyValue(value: number | string, field: CallSortField): number | string {
  return field === 'opName' ? String(value) : Number(value);
}
