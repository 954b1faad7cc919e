import { WORD } from '../search-text.js';
import { type CallHalfRow, END, START } from './call-halves.js';
import { microsOf } from './list-schema.js';

/**
 * One row of `call_list` as inserted (TabSeparated; times in microseconds,
 * see `list-schema.ts`), which is also the row of `call_trace`: the fields
 * only that table has (`CALL_TRACE_COLUMNS`) ride along, and each insert
 * writes the columns of its own table.
 */
export type CallListRow = Record<string, string | number | string[]>;

/** Ranks a row holding both halves above any row holding the start alone (see `callListStatements`). */
const ENDED_RANK = 2 ** 52;

/**
 * The newest copy of each half of one call, as `calls` holds them (the
 * half-rows `callHalfRows` makes, or their fold, `LIST_FOLD_COLUMNS`).
 */
export interface CallHalves {
  start: CallHalfRow;
  end: CallHalfRow | undefined;
}

/** Every column of a `call_list` row, in the order of its TabSeparated rows (`callListRow` fills each). */
export const CALL_LIST_COLUMNS = [
  'project',
  'started_at',
  'id',
  'version',
  'trace_id',
  'parent_id',
  'op_name',
  'op_plain',
  'display_name',
  'has_display',
  'session_id',
  'status',
  'has_end',
  'ended_at',
  'latency_key',
  'total_tokens',
  'cost_usd',
  'attr_terms',
  'search',
] as const;

/**
 * The `call_list` row of a call from its halves: the fields lists filter
 * and sort on, the folded words of its text (single spaces, so every
 * tokenizer cuts exactly the contract's words), and its `version`; with
 * what `call_trace` adds: the times as sent (milliseconds) and the values
 * the trace view shows (attributes of the start, summary and exception of
 * the end).
 */
export function callListRow(project: string, { start, end }: CallHalves): CallListRow {
  const startedAt = Number(start.started_at);
  const ended = end !== undefined;
  const endedAt = ended ? Number(end.ended_at) : 0;
  const given = ended ? Number(end.latency_given) : -1;
  const seq = Math.max(Number(start.seq), ended ? Number(end.seq) : 0);
  const text = `${start.search_start ?? ''} ${ended ? (end.search_end ?? '') : ''}`;
  return {
    project,
    started_at: microsOf(startedAt),
    id: String(start.id),
    version: (ended ? ENDED_RANK : 0) + seq,
    trace_id: String(start.trace_id),
    parent_id: String(start.parent_id),
    op_name: String(start.op_name),
    op_plain: String(start.op_plain),
    display_name: String(start.display_name),
    has_display: Number(start.has_display),
    session_id: String(start.session_id ?? ''),
    status: ended ? String(end.status) : 'running',
    has_end: ended ? 1 : 0,
    ended_at: microsOf(endedAt),
    latency_key: ended ? (given >= 0 ? given : endedAt - startedAt) : -1,
    total_tokens: ended ? Number(end.total_tokens ?? -1) : -1,
    cost_usd: ended ? Number(end.cost_usd ?? -1) : -1,
    attr_terms: (start.attr_terms as string[] | undefined) ?? [],
    search: String(text).match(WORD)?.join(' ') ?? '',
    started_ms: startedAt,
    ended_ms: endedAt,
    attributes: String(start.attributes ?? ''),
    summary: ended ? String(end.summary ?? '') : '',
    exception: ended ? String(end.exception ?? '') : '',
  };
}

/** The halves of each complete record among `rows` (both halves in the same batch), by id. */
export function halvesInBatch(rows: readonly CallHalfRow[]): Map<string, Partial<CallHalves>> {
  const byId = new Map<string, Partial<CallHalves>>();
  for (const row of rows) {
    const id = String(row.id);
    const halves = byId.get(id) ?? {};
    // Later rows of a batch are later writes of the same half.
    if (row.half === START) halves.start = row;
    else if (row.half === END) halves.end = row;
    byId.set(id, halves);
  }
  return byId;
}

/**
 * The newest copy of each half of the ids a query names, from `calls`
 * (argMaxIf by `seq`, per half): what a list row is rebuilt from when a
 * batch carried one half of a call and the other may be stored already.
 */
export const LIST_FOLD_COLUMNS = [
  'id',
  ...[
    'seq',
    'trace_id',
    'parent_id',
    'op_name',
    'op_plain',
    'display_name',
    'has_display',
    'started_at',
    'session_id',
    'attr_terms',
    'search_start',
    'attributes',
  ].map((c) => `argMaxIf(${c}, seq, half = ${START}) AS s_${c}`),
  ...[
    'seq',
    'ended_at',
    'latency_given',
    'status',
    'search_end',
    'total_tokens',
    'cost_usd',
    'summary',
    'exception',
  ].map((c) => `argMaxIf(${c}, seq, half = ${END}) AS e_${c}`),
  `max(half = ${START}) AS has_start`,
  `max(half = ${END}) AS has_end`,
].join(', ');

/** A row of {@link LIST_FOLD_COLUMNS} as its halves, or `undefined` when the start has not arrived. */
export function halvesOfFold(row: Record<string, unknown>): CallHalves | undefined {
  if (Number(row.has_start) !== 1) return undefined;
  const pick = (prefix: string) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([key]) => key.startsWith(prefix))
        .map(([key, value]) => [key.slice(prefix.length), value]),
    ) as CallHalfRow;
  const start = { ...pick('s_'), id: String(row.id) };
  return { start, end: Number(row.has_end) === 1 ? { ...pick('e_'), id: String(row.id) } : undefined };
}
