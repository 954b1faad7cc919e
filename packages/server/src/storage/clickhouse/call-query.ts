import {
  type CallQueryParsed,
  type CallQueryResponse,
  type CallSortField,
  type Feedback,
  isRefUri,
  type TraceColumnsResponse,
} from '@weft/protocol';
import { attributeTerm } from '../attribute-terms.js';
import { type CursorPosition, callSortKey, decodeCursor, encodeCursor } from '../cursor.js';
import { searchWords } from '../search-text.js';
import { callSearchText, textSnippet } from '../text-snippet.js';
import { attributeTermKey } from './attribute-term-key.js';
import { type FoldedCall, callFromFolded } from './call-columns.js';
import { readFullCalls } from './call-page-read.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import type { ClickHouseFeedbackStore } from './feedback-store.js';
import { listReadSettings } from './list-read-settings.js';
import { type ListTimeSql, microsOf } from './list-schema.js';
import type { SchemaProfile } from './schema-profile.js';
import { inList, sqlLiteral } from './sql-literal.js';
import { readTraceColumns } from './trace-columns-read.js';

/** How many list rows each read of a page's walk takes (see {@link ClickHouseCallQuery}); tests make it tiny. */
export interface ListWalk {
  rows(wanted: number): number;
}

/** The calls still wanted, and room for a few stale copies. */
const WALK: ListWalk = { rows: (wanted) => wanted + 8 };

/** A list row as a page's walk reads it: its id, version and sort key. */
interface KeyRow {
  id: string;
  version: number | string;
  k_time: number | string;
  k_latency: number;
  k_op: string;
}

/** A current list row of a page, with its full call and the feedback read with it. */
interface PageRow {
  key: KeyRow;
  call: FoldedCall;
  feedback: Map<string, Feedback[]>;
}

/** The ORDER BY of each sort, before the direction; every one ends with `id`, the tie-break. */
const ORDER: Record<CallSortField, readonly string[]> = {
  startedAt: ['started_at', 'id'],
  latencyMs: ['latency_key', 'id'],
  opName: ['op_plain', 'started_at', 'id'],
};

/**
 * Keyset-paged call queries as `Storage.queryCalls` states them, over
 * `call_list` (one row per call, see `callListStatements`):
 *
 *   1. read the list rows passing the filters, strictly after the cursor,
 *      in sort order, LIMIT a few more than the page still needs — read in
 *      order of the primary key or of a projection, so a page reads a few
 *      granules, not the project;
 *   2. drop stale copies: a row whose `version` is not its call's highest
 *      (a start stored alone before its end, a half since sent again) is an
 *      old state of the call; the current row is in the table too, at its
 *      own place in the order, and is kept there if it passes. The highest
 *      version follows from the call's stored halves (`StoredCall`), read
 *      anyway for the page with its feedback (two small reads at once,
 *      after the walk); only rows that do not match it (rare) cost a third
 *      read, of their ids' highest version in `call_list`. Copies of the
 *      same version (two replicas wrote the same row) count once;
 *   3. too few left? read on after the last row read.
 *
 * A page is so two round trips: the walk, then the two reads at once.
 * (Joining the newest versions into the walk's query read the walk twice
 * and cost more than the walk itself on ClickHouse 26.)
 */
export class ClickHouseCallQuery {
  readonly #connection: ClickHouseConnection;
  readonly #list: string;
  readonly #latency: string | undefined;
  readonly #calls: string;
  readonly #trace: string;
  readonly #feedback: ClickHouseFeedbackStore;
  readonly #time: ListTimeSql;
  readonly #profile: SchemaProfile;
  readonly #walk: ListWalk;
  /** `listReadSettings`, asked once (again after a failure). */
  #readSettings: Promise<string> | undefined;

  constructor({
    connection,
    list,
    latency,
    calls,
    trace,
    feedback,
    time,
    profile,
    walk = WALK,
  }: {
    connection: ClickHouseConnection;
    list: string;
    /** `call_latency` (modern servers, see `callLatencyStatements`), else undefined. */
    latency?: string | undefined;
    calls: string;
    /** `call_trace` (see `callTraceTable`). */
    trace: string;
    feedback: ClickHouseFeedbackStore;
    time: ListTimeSql;
    profile: SchemaProfile;
    walk?: ListWalk;
  }) {
    this.#connection = connection;
    this.#list = list;
    this.#latency = latency;
    this.#calls = calls;
    this.#trace = trace;
    this.#feedback = feedback;
    this.#time = time;
    this.#profile = profile;
    this.#walk = walk;
  }

  async run(query: CallQueryParsed): Promise<CallQueryResponse> {
    const { field, direction } = query.sort;
    const sortName = `${field}:${direction}`;
    const words = query.text === undefined ? [] : searchWords(query.text);
    const where = this.#conditions(query, words);
    let cursor: CursorPosition | undefined;
    if (query.cursor !== undefined) {
      const position = decodeCursor(query.cursor, sortName);
      cursor = { key: callSortKey(field, position.key), id: position.id };
    }
    const sources = this.#sources(field, query.text !== undefined);
    const found = await this.#walkList(
      query.project,
      where,
      sources,
      field,
      direction,
      query.limit + 1,
      cursor,
    );
    const more = found.length > query.limit;
    const shown = more ? found.slice(0, query.limit) : found;
    const last = shown.at(-1)?.key;
    return {
      calls: shown.map(({ key, call: row, feedback }) => {
        const call = callFromFolded(query.project, row);
        call.feedback = feedback.get(key.id) ?? [];
        const snippet = words.length === 0 ? undefined : textSnippet(callSearchText(call), words);
        if (snippet !== undefined) call.snippet = snippet;
        return call;
      }),
      nextCursor:
        more && last ? encodeCursor(sortName, { key: this.#cursorKey(last, field), id: last.id }) : null,
    };
  }

  /** One call, or undefined when unknown or its start has not arrived. */
  async readOne(project: string, id: string): Promise<FoldedCall | undefined> {
    return (await readFullCalls(this.#connection, this.#calls, project, [id])).get(id);
  }

  /** Every call of a trace, light, in start order, as columns (see `Storage.traceColumns`). */
  traceColumns(project: string, traceId: string, limit: number): Promise<TraceColumnsResponse> {
    return readTraceColumns(this.#connection, this.#trace, project, traceId, limit);
  }

  /** The filters of `query` as conditions on list rows (see `Storage.queryCalls`). */
  #conditions(query: CallQueryParsed, words: readonly string[]): string[] {
    const time = this.#time;
    const where = [`project = ${sqlLiteral(query.project)}`];
    if (query.traceId !== undefined) where.push(`trace_id = ${sqlLiteral(query.traceId)}`);
    if (query.parentId === null) where.push("parent_id = ''");
    else if (query.parentId !== undefined) where.push(`parent_id = ${sqlLiteral(query.parentId)}`);
    if (query.opName !== undefined) {
      const names = Array.isArray(query.opName) ? query.opName : [query.opName];
      // A ref matches that exact op version; a plain name matches every version.
      const refs = names.filter((n) => isRefUri(n));
      const plain = names.filter((n) => !isRefUri(n));
      const terms = [
        ...(plain.length > 0 ? [`op_plain IN ${inList(plain)}`] : []),
        ...(refs.length > 0 ? [`op_name IN ${inList(refs)}`] : []),
      ];
      where.push(`(${terms.join(' OR ')})`);
    }
    if (query.status !== undefined) {
      const statuses = [...new Set(Array.isArray(query.status) ? query.status : [query.status])];
      where.push(`status IN ${inList(statuses)}`);
    }
    if (query.startedAfter !== undefined)
      where.push(`started_at >= ${time.literal(microsOf(query.startedAfter))}`);
    if (query.startedBefore !== undefined)
      where.push(`started_at < ${time.literal(microsOf(query.startedBefore))}`);
    if (query.sessionId !== undefined) where.push(`session_id = ${sqlLiteral(query.sessionId)}`);
    const terms = attributeTermKeys(query);
    if (terms.length > 0) where.push(`hasAll(attr_terms, ${sqlLiteral(terms)})`);
    if (query.feedback !== undefined) where.push(this.#feedback.matchingCalls(query.project, query.feedback));
    for (const word of words) {
      // `search` is the call's folded words, one space apart: a whole word is
      // a token (full-text index) or, on 18.16, the word between spaces.
      where.push(
        this.#profile.kind === 'modern'
          ? `hasToken(search, ${sqlLiteral(word)})`
          : `position(concat(' ', search, ' '), ${sqlLiteral(` ${word} `)}) > 0`,
      );
    }
    if (query.text !== undefined && words.length === 0) {
      // Only punctuation: no word, so a substring of the names, ASCII letters
      // folded (the contract's rule; ClickHouse's lower() folds ASCII only).
      const needle = sqlLiteral(query.text.toLowerCase());
      where.push(
        `(position(lower(display_name), ${needle}) > 0 OR position(lower(op_plain), ${needle}) > 0)`,
      );
    }
    return where;
  }

  /**
   * The first `count` current list rows passing `where` after `cursor`, with
   * their full calls and feedback (steps 1–3 in the class comment).
   */
  async #walkList(
    project: string,
    where: readonly string[],
    sources: readonly ListSource[],
    field: CallSortField,
    direction: 'asc' | 'desc',
    count: number,
    cursor: CursorPosition | undefined,
  ): Promise<PageRow[]> {
    const order = direction === 'asc' ? 'ASC' : 'DESC';
    // NULLS FIRST on the latency key descending: for a float ClickHouse puts
    // NaN last either way by default, which is not the stored order read
    // backwards, so it would sort every row instead of reading in reverse
    // order (measured at 1 M calls: 1,025,103 rows read instead of 9,297).
    // A latency is never NaN, so the order is the same.
    const orderBy = ORDER[field]
      .map((c) => `${c} ${order}${c === 'latency_key' && order === 'DESC' ? ' NULLS FIRST' : ''}`)
      .join(', ');
    const settings = await this.#settings();
    const found: PageRow[] = [];
    const seen = new Set<string>();
    let after = cursor === undefined ? undefined : this.#after(field, direction, cursor);
    while (found.length < count) {
      const size = this.#walk.rows(count - found.length);
      // Read in the order of each source's primary key, stopping at LIMIT;
      // several sources (the latency sort) are merged in that order.
      const conditions = [...where, ...(after === undefined ? [] : [after])];
      const read = await Promise.all(
        sources.map((source) =>
          this.#connection.rows<KeyRow>(`
            SELECT id, version, ${this.#time.micros('started_at')} AS k_time, latency_key AS k_latency, op_plain AS k_op
            FROM ${source.table} WHERE ${[...conditions, ...source.where].join(' AND ')}
            ORDER BY ${orderBy} LIMIT ${sqlLiteral(size)}${settings}`),
        ),
      );
      const rows = read.length === 1 ? (read[0] as KeyRow[]) : mergeByLatency(read, direction).slice(0, size);
      if (rows.length === 0) break;
      const full = rows.length === size;
      // Copies of one call share its sort key (a call sent twice), and the
      // next read starts strictly after (key, id): a full read that ends
      // between the copies of its last id leaves that id to the next read,
      // or its current copy would be skipped after a stale one was dropped.
      const lastId = (rows.at(-1) as KeyRow).id;
      const whole = full ? rows.findLastIndex((r) => r.id !== lastId) + 1 : rows.length;
      const taken = whole > 0 ? rows.slice(0, whole) : rows;
      // Each candidate's full call and feedback, at once: a page's ids are
      // known after the walk. A list row whose version is its stored call's
      // (see `StoredCall`) is current; only the others (rare: a stale copy
      // before merges, or a list row still being written) cost a read of
      // their highest version in `call_list`.
      const ids = [...new Set(taken.map((r) => r.id))].filter((id) => !seen.has(id));
      const [calls, feedback] = await Promise.all([
        readFullCalls(this.#connection, this.#calls, project, ids),
        this.#feedback.forCalls(project, ids),
      ]);
      const unsure = ids.filter((id) =>
        taken.some((key) => key.id === id && Number(key.version) !== calls.get(id)?.version),
      );
      const newest = await this.#newestVersions(project, unsure, settings);
      const current = (key: KeyRow) =>
        Number(key.version) === (newest.get(key.id) ?? calls.get(key.id)?.version);
      for (const key of taken) {
        const call = calls.get(key.id);
        if (seen.has(key.id) || !current(key) || call === undefined) continue;
        seen.add(key.id);
        found.push({ key, call, feedback });
        if (found.length === count) break;
      }
      if (!full) break;
      const last = taken.at(-1) as KeyRow;
      after = this.#after(field, direction, { key: this.#cursorKey(last, field), id: last.id });
    }
    return found;
  }

  /**
   * The tables a page's walk reads: `call_list`, or for a latency sort on a
   * modern server (text filters aside: `call_latency` has no text) the ended
   * calls from `call_latency` and the running ones (latency_key -1) from
   * `call_list`, each in its own key order.
   */
  #sources(field: CallSortField, text: boolean): ListSource[] {
    if (field !== 'latencyMs' || this.#latency === undefined || text)
      return [{ table: this.#list, where: [] }];
    return [
      { table: this.#latency, where: [] },
      { table: this.#list, where: ["status = 'running'"] },
    ];
  }

  /** The highest `version` of each of `ids` in `call_list`: a list row of a lower one is a stale copy. */
  async #newestVersions(
    project: string,
    ids: readonly string[],
    settings: string,
  ): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#connection.rows<{ id: string; newest: number | string }>(`
      SELECT id, max(version) AS newest FROM ${this.#list}
      WHERE project = ${sqlLiteral(project)} AND id IN ${inList(ids)} GROUP BY id${settings}`);
    return new Map(rows.map((r) => [r.id, Number(r.newest)]));
  }

  /** The SETTINGS clause of the walk and the version check (see `listReadSettings`). */
  #settings(): Promise<string> {
    if (this.#readSettings === undefined) {
      const asked = listReadSettings(this.#connection);
      asked.catch(() => {
        if (this.#readSettings === asked) this.#readSettings = undefined;
      });
      this.#readSettings = asked;
    }
    return this.#readSettings;
  }

  /** `(key, id)` strictly after `position` in the sort's direction. */
  #after(field: CallSortField, direction: 'asc' | 'desc', position: CursorPosition): string {
    const op = direction === 'asc' ? '>' : '<';
    const id = sqlLiteral(position.id);
    const beyond = (column: string, value: string, tie: string) =>
      `(${column} ${op} ${value} OR (${column} = ${value} AND ${tie}))`;
    const byId = `id ${op} ${id}`;
    if (field === 'latencyMs') return beyond('latency_key', sqlLiteral(position.key as number), byId);
    const [name, startedAt] =
      field === 'opName' ? (position.key as readonly [string, number]) : ['', position.key as number];
    const byTime = beyond('started_at', this.#time.literal(microsOf(startedAt)), byId);
    return field === 'opName' ? beyond('op_plain', sqlLiteral(name), byTime) : byTime;
  }

  /** The contract's cursor key of a list row: ms for times, the latency, or the op name and start time. */
  #cursorKey(row: KeyRow, field: CallSortField): CursorPosition['key'] {
    const startedAt = Number(row.k_time) / 1_000;
    if (field === 'startedAt') return startedAt;
    if (field === 'latencyMs') return Number(row.k_latency);
    return [String(row.k_op), startedAt];
  }
}

/** A table a page's walk reads, with conditions of its own. */
interface ListSource {
  table: string;
  where: readonly string[];
}

/** Rows of several walks, each in latency order, as one list in that order (ties by id). */
function mergeByLatency(reads: readonly KeyRow[][], direction: 'asc' | 'desc'): KeyRow[] {
  const sign = direction === 'asc' ? 1 : -1;
  return reads
    .flat()
    .sort(
      (a, b) =>
        sign * (Number(a.k_latency) - Number(b.k_latency) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    );
}

/** The attribute terms a query asks for: `attributes`, `userId` (`user.id`) and each `tag` (`tags`), all ANDed. */
function attributeTermKeys(query: CallQueryParsed): string[] {
  const pairs: [string, string | number | boolean][] = Object.entries(query.attributes ?? {});
  if (query.userId !== undefined) pairs.push(['user.id', query.userId]);
  for (const tag of query.tag === undefined ? [] : Array.isArray(query.tag) ? query.tag : [query.tag])
    pairs.push(['tags', tag]);
  return pairs.map(([key, value]) => attributeTermKey(key, ...attributeTerm(value)));
}
