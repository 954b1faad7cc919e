import type { CallItem } from '@weft/protocol';
import { endStatus } from '../call-status.js';
import { attributeTermsOf } from '../attribute-terms.js';
import { plainOpName } from '../op-name.js';
import { foldText, searchTextOf } from '../search-text.js';
import { totalTokensOf } from '../total-tokens.js';
import { attributeTermKey } from './attribute-term-key.js';

/** `half` of a start row and of an end row in `calls`. */
export const START = 1;
export const END = 2;

/** One row of the `calls` table as inserted (JSONEachRow). */
export type CallHalfRow = Record<string, string | number | string[]>;

/**
 * Stored value columns: msgpack (exactly what arrived, as every engine keeps
 * it) in base64, because rows travel as JSON text. An
 * absent value is the empty string; an encoded value never is.
 */
export function toStoredValue(value: unknown, encode: (value: unknown) => Uint8Array): string {
  return value === undefined ? '' : Buffer.from(encode(value)).toString('base64');
}

/**
 * Every column an ingest writes to `calls`, in the order of its
 * TabSeparated rows (`callHalfRows` fills each of them).
 */
export const CALL_HALF_COLUMNS = [
  'project',
  'id',
  'half',
  'seq',
  'event_ms',
  'trace_id',
  'parent_id',
  'op_name',
  'op_plain',
  'has_display',
  'display_name',
  'started_at',
  'inputs',
  'attributes',
  'ended_at',
  'output',
  'exception',
  'summary',
  'latency_given',
  'status',
  'session_id',
  'attr_terms',
  'search_start',
  'search_end',
  'total_tokens',
  'cost_usd',
  'span_usage',
] as const;

/** No attribute terms (shared: rows never change their arrays). */
const NO_TERMS: string[] = [];

/**
 * The half-rows of one record: a start gives a start half, an end an end
 * half, a complete record both. `seq` orders copies of the same half (the
 * newest wins: the contract's later write): milliseconds since
 * the epoch times 1,000 plus a counter, so copies written in the same
 * millisecond by this process still order. Each row is one object literal
 * with every column of {@link CALL_HALF_COLUMNS} (the other half's columns
 * empty): one shape for V8, no copies of a shared template.
 */
export function callHalfRows(
  project: string,
  item: CallItem,
  seq: number,
  encode: (value: unknown) => Uint8Array,
): CallHalfRow[] {
  const rows: CallHalfRow[] = [];
  if (item.type !== 'end') {
    const opPlain = plainOpName(item.opName);
    const terms = attributeTermsOf(item.attributes);
    rows.push({
      project,
      id: item.id,
      half: START,
      seq,
      event_ms: item.startedAt,
      trace_id: item.traceId,
      parent_id: item.parentId ?? '',
      op_name: item.opName,
      op_plain: opPlain,
      has_display: item.displayName === undefined ? 0 : 1,
      display_name: item.displayName ?? '',
      started_at: item.startedAt,
      inputs: toStoredValue(item.inputs, encode),
      attributes: toStoredValue(item.attributes, encode),
      ended_at: 0,
      output: '',
      exception: '',
      summary: '',
      latency_given: -1,
      status: 'running',
      session_id: item.sessionId ?? '',
      attr_terms:
        terms.length === 0 ? NO_TERMS : terms.map(([key, kind, value]) => attributeTermKey(key, kind, value)),
      // Folded (see the Storage contract, "Text matching"): names and the inputs' text.
      search_start: foldText(`${item.displayName ?? ''} ${opPlain} ${searchTextOf(item.inputs) ?? ''}`),
      search_end: '',
      total_tokens: -1,
      cost_usd: -1,
      span_usage: '',
    });
  }
  if (item.type !== 'start') {
    rows.push({
      project,
      id: item.id,
      half: END,
      seq,
      event_ms: item.endedAt,
      trace_id: '',
      parent_id: '',
      op_name: '',
      op_plain: '',
      has_display: 0,
      display_name: '',
      started_at: 0,
      inputs: '',
      attributes: '',
      ended_at: item.endedAt,
      output: toStoredValue(item.output, encode),
      exception: toStoredValue(item.exception, encode),
      summary: toStoredValue(item.summary, encode),
      latency_given: item.summary?.latencyMs ?? -1,
      status: endStatus(item),
      session_id: '',
      attr_terms: NO_TERMS,
      search_start: '',
      search_end: foldText(searchTextOf(item.output ?? item.exception?.message ?? null) ?? ''),
      total_tokens: totalTokensOf(item.summary) ?? -1,
      cost_usd: item.summary?.costUsd ?? -1,
      span_usage: '',
    });
  }
  return rows;
}
