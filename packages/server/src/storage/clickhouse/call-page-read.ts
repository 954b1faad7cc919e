import type { CallStatus } from '@weft/protocol';
import { END, START } from './call-halves.js';
import type { FoldedCall } from './call-columns.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { inList, sqlLiteral } from './sql-literal.js';
import { tabSeparatedRows, unescapeTabSeparated } from './tab-separated-read.js';

/** Columns of a start half that a full call shows. */
const START_COLUMNS = [
  'trace_id',
  'parent_id',
  'op_name',
  'has_display',
  'display_name',
  'session_id',
  'started_at',
  'inputs',
  'attributes',
] as const;
/** Columns of an end half that a full call shows. */
const END_COLUMNS = ['ended_at', 'status', 'output', 'exception', 'summary'] as const;

type HalfRow = Record<(typeof START_COLUMNS)[number] | (typeof END_COLUMNS)[number], string | number> & {
  id: string;
  half: number | string;
  seq: number | string;
};

/**
 * Full calls of `ids` from their half-rows in `calls`, by id; only those
 * whose start arrived. The half-rows are read as stored (a primary-key read
 * of the page's ids) and the newest copy of each half (highest `seq`) is
 * picked here: a `GROUP BY id` with `argMaxIf` over every value column cost
 * twice the read itself on ClickHouse 26 (the aggregation of the value
 * strings), and a page holds at most a few copies per call.
 */
export async function readFullCalls(
  connection: ClickHouseConnection,
  table: string,
  project: string,
  ids: readonly string[],
): Promise<Map<string, FoldedCall>> {
  if (ids.length === 0) return new Map();
  return foldHalves(
    await connection.rows<HalfRow>(`
      SELECT id, half, seq, ${[...START_COLUMNS, ...END_COLUMNS].join(', ')} FROM ${table}
      WHERE project = ${sqlLiteral(project)} AND id IN ${inList(ids)}`),
  );
}

/** What a light call reads of its newest start half, then of its newest end half (values aside). */
const LIGHT_START = [
  'parent_id',
  'op_name',
  'has_display',
  'display_name',
  'session_id',
  'started_at',
  'attributes',
];
const LIGHT_END = ['ended_at', 'status', 'summary', 'exception'];

/** How many fields each row of {@link traceStatement} holds. */
export const TRACE_FIELDS = 2 + LIGHT_START.length + LIGHT_END.length;

/** The stored values among the light columns: `keyed`, each comes after a key of its text. */
const VALUE_COLUMNS: ReadonlySet<string> = new Set(['attributes', 'exception', 'summary']);

/** How many fields each row of a `keyed` {@link traceStatement} holds. */
export const KEYED_TRACE_FIELDS = TRACE_FIELDS + VALUE_COLUMNS.size;

/**
 * The statement of a trace's light calls (see {@link readTraceCalls}): a
 * TabSeparated row per call, in start order then id, its fields: id, then
 * {@link LIGHT_START} of its newest start, whether an end arrived, then
 * {@link LIGHT_END} of its newest end. `keyed`: each stored value comes
 * after a key of its text (its 64-bit CityHash and length, in hex), so a
 * reader can tell a value it has seen without reading or hashing its text.
 */
export function traceStatement(
  { table, list }: { table: string; list: string },
  project: string,
  traceId: string,
  limit: number,
  settings: string,
  keyed = false,
): string {
  const inProject = `project = ${sqlLiteral(project)}`;
  const newest = (columns: readonly string[], half: number) =>
    columns.map((c) => {
      const value = `argMaxIf(${c}, seq, half = ${half})`;
      return keyed && VALUE_COLUMNS.has(c)
        ? `concat(hex(cityHash64(${value})), hex(length(${value}))), ${value}`
        : value;
    });
  return `
    SELECT id, ${[...newest(LIGHT_START, START), `max(half = ${END})`, ...newest(LIGHT_END, END)].join(', ')}
    FROM ${table}
    WHERE ${inProject} AND id IN (
      SELECT id FROM ${list} WHERE ${inProject} AND trace_id = ${sqlLiteral(traceId)}
      GROUP BY id ORDER BY min(started_at), id LIMIT ${Math.trunc(limit)})
    GROUP BY id HAVING max(half = ${START}) = 1
    ORDER BY argMaxIf(started_at, seq, half = ${START}), id${settings}`;
}

/**
 * Every call of a trace whose start arrived, light (no inputs or output:
 * `callFromFolded` gives `{}` and `null`), by start time then id. One
 * statement: the trace's ids from `list` (`call_list`, whose `ix_trace`
 * bloom filter and time order narrow them to the trace's granules), their
 * half-rows from `table` (`calls`) by primary key (an end half carries no
 * trace id), each call's newest halves folded there (`argMaxIf` of small
 * columns only) and answered as TabSeparated text: at 10 M calls, for the
 * 25,001-call trace, half the decoding of a row per half as objects (chDB
 * 26.7), and no JSON parse of its ~8 MB (the base64 values need no escapes).
 * At most `limit` calls: the trace's first ids by start time, then id.
 * `settings` is `listReadSettings`'.
 */
export async function readTraceCalls(
  connection: ClickHouseConnection,
  tables: { table: string; list: string },
  project: string,
  traceId: string,
  limit: number,
  settings: string,
): Promise<FoldedCall[]> {
  const text = await connection.tabSeparatedText(traceStatement(tables, project, traceId, limit, settings));
  const calls = tabSeparatedRows(text, TRACE_FIELDS).map(
    ([
      id,
      parent,
      op,
      hasDisplay,
      display,
      session,
      startedAt,
      attributes,
      hasEnd,
      endedAt,
      status,
      summary,
      exception,
    ]) => {
      const ended = hasEnd === '1';
      // Ids and base64 values hold no character TabSeparated escapes.
      return {
        id: id as string,
        f_has_start: 1,
        f_has_end: ended ? 1 : 0,
        f_trace_id: traceId,
        f_parent_id: parent as string,
        f_op_name: unescapeTabSeparated(op as string),
        f_display_name: unescapeTabSeparated(display as string),
        f_session_id: unescapeTabSeparated(session as string),
        f_has_display: Number(hasDisplay),
        f_started_at: Number(startedAt),
        f_ended_at: ended ? Number(endedAt) : 0,
        f_status: ended ? (status as CallStatus) : 'running',
        f_inputs: '',
        f_attributes: attributes as string,
        f_output: '',
        f_exception: ended ? (exception as string) : '',
        f_summary: ended ? (summary as string) : '',
      } satisfies FoldedCall;
    },
  );
  return calls.sort((a, b) => a.f_started_at - b.f_started_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The newest copy of each half (highest `seq`) of each id among `rows`, folded; only ids whose start is there. */
function foldHalves(rows: readonly HalfRow[]): Map<string, FoldedCall> {
  const starts = new Map<string, HalfRow>();
  const ends = new Map<string, HalfRow>();
  for (const row of rows) {
    const newest = Number(row.half) === START ? starts : Number(row.half) === END ? ends : undefined;
    const held = newest?.get(row.id);
    if (newest !== undefined && (held === undefined || Number(row.seq) > Number(held.seq)))
      newest.set(row.id, row);
  }
  const calls = new Map<string, FoldedCall>();
  for (const [id, start] of starts) calls.set(id, foldedOf(start, ends.get(id)));
  return calls;
}

/** The newest start and end halves of one call as the folded row `callFromFolded` reads. */
function foldedOf(start: HalfRow, end: HalfRow | undefined): FoldedCall {
  return {
    id: start.id,
    f_has_start: 1,
    f_has_end: end === undefined ? 0 : 1,
    f_trace_id: String(start.trace_id),
    f_parent_id: String(start.parent_id),
    f_op_name: String(start.op_name),
    f_display_name: String(start.display_name),
    f_session_id: String(start.session_id),
    f_has_display: start.has_display,
    f_started_at: Number(start.started_at),
    f_ended_at: end === undefined ? 0 : Number(end.ended_at),
    f_status: end === undefined ? 'running' : (String(end.status) as CallStatus),
    f_inputs: String(start.inputs),
    f_attributes: String(start.attributes),
    f_output: end === undefined ? '' : String(end.output),
    f_exception: end === undefined ? '' : String(end.exception),
    f_summary: end === undefined ? '' : String(end.summary),
  };
}
