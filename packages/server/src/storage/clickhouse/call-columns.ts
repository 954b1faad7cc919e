import type { Call, CallStatus, CallSummary, ExceptionInfo } from '@weft/protocol';
import { decodeMsgpack } from '@weft/protocol';
import { END, START } from './call-halves.js';

/** The newest copy of a start-half column, folded over an id's rows. */
const fromStart = (column: string) => `argMaxIf(${column}, seq, half = ${START})`;
/** The newest copy of an end-half column. */
const fromEnd = (column: string) => `argMaxIf(${column}, seq, half = ${END})`;

/**
 * Aliases carry an `f_` prefix: an alias equal to a column name would be
 * substituted into the other aggregates that read that column.
 *
 * Aggregates that fold the half-rows of one call (`GROUP BY id`) into the
 * fields the filters and sorts need (the contract's upsert of halves),
 * computed at read time, so the answer is right whether or not
 * background merges have run and whichever half arrived first.
 */
export const KEY_COLUMNS = `
  id,
  max(half = ${START}) AS f_has_start,
  max(half = ${END}) AS f_has_end,
  ${fromStart('trace_id')} AS f_trace_id,
  ${fromStart('parent_id')} AS f_parent_id,
  ${fromStart('op_name')} AS f_op_name,
  ${fromStart('op_plain')} AS f_op_plain,
  ${fromStart('display_name')} AS f_display_name,
  ${fromStart('session_id')} AS f_session_id,
  ${fromStart('started_at')} AS f_started_at,
  ${fromEnd('ended_at')} AS f_ended_at,
  if(f_has_end, ${fromEnd('status')}, 'running') AS f_status,
  if(f_has_end, if(${fromEnd('latency_given')} >= 0, ${fromEnd('latency_given')}, f_ended_at - f_started_at), -1) AS f_latency_key`;

/** The newest start's attribute terms (see `attribute-term-key.ts`), for attribute filters. */
export const ATTRIBUTE_TERMS_COLUMN = `${fromStart('attr_terms')} AS f_attr_terms`;

/**
 * The searchable text of a call (the contract's "Text matching"), folded at
 * ingest: display name, op name and inputs of its newest start, then the text
 * of its newest end. Names also come from their own columns, so calls stored
 * before migration 2 (no search text) are still found by name.
 */
export const SEARCH_TEXT_COLUMN = `concat(${[fromStart('display_name'), fromStart('op_plain'), fromStart('search_start'), fromEnd('search_end')].join(", ' ', ")}) AS f_search`;

/** Totals of the newest end (-1 when absent), for session summaries. */
export const TOTALS_COLUMNS = `${fromEnd('total_tokens')} AS f_total_tokens, ${fromEnd('cost_usd')} AS f_cost_usd`;

/** {@link KEY_COLUMNS} plus every stored value: what a full call needs. */
export const FULL_COLUMNS = `${KEY_COLUMNS},
  ${fromStart('has_display')} AS f_has_display,
  ${fromStart('inputs')} AS f_inputs,
  ${fromStart('attributes')} AS f_attributes,
  ${fromEnd('output')} AS f_output,
  ${fromEnd('exception')} AS f_exception,
  ${fromEnd('summary')} AS f_summary`;

/** A folded call as JSONEachRow returns it (64-bit integers and UInt8 flags may come as strings). */
export interface FoldedCall {
  id: string;
  f_has_start: number | string;
  f_has_end: number | string;
  f_trace_id: string;
  f_parent_id: string;
  f_op_name: string;
  f_display_name: string;
  f_session_id: string;
  f_has_display: number | string;
  f_started_at: number;
  f_ended_at: number;
  f_status: CallStatus;
  f_inputs: string;
  f_attributes: string;
  f_output: string;
  f_exception: string;
  f_summary: string;
}

/** Decodes a stored value (msgpack as base64), `fallback` when there is none (''). */
export type StoredDecoder = <T>(base64: string, fallback: T) => T;

/** Decodes one stored value, no sharing (see {@link sharedDecoder} for many calls). */
export const fromStored: StoredDecoder = <T>(base64: string, fallback: T): T =>
  base64 === '' ? fallback : (decodeMsgpack(Buffer.from(base64, 'base64')) as T);

/** The wire shape of a folded call whose start has arrived. */
export function callFromFolded(project: string, row: FoldedCall, decode: StoredDecoder = fromStored): Call {
  const ended = Number(row.f_has_end) === 1;
  const call: Call = {
    project,
    id: row.id,
    traceId: row.f_trace_id,
    parentId: row.f_parent_id === '' ? null : row.f_parent_id,
    opName: row.f_op_name,
    displayName: Number(row.f_has_display) === 1 ? row.f_display_name : null,
    startedAt: row.f_started_at,
    endedAt: ended ? row.f_ended_at : null,
    status: row.f_status,
    inputs: decode<Record<string, unknown>>(row.f_inputs, {}),
    output: decode<unknown>(row.f_output, null),
    exception: decode<ExceptionInfo | null>(row.f_exception, null),
    summary: decode<CallSummary | null>(row.f_summary, null),
    attributes: decode<Record<string, unknown>>(row.f_attributes, {}),
  };
  // An empty session id is "none": the protocol refuses an empty one.
  if (row.f_session_id !== '') call.sessionId = row.f_session_id;
  return call;
}
