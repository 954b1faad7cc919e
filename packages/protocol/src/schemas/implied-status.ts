import { fillCompleteLatency } from './call-latency.js';
import type { CallItem, CallStatus, CallSummary, ExceptionInfo } from './calls.js';

/**
 * A finished call's status is implied by its record: `error` where the record
 * carries an exception, `success` where it does not (the server's stored
 * status is that already, see `endStatus`). From protocol 4 the SDK leaves
 * `summary.status` out where it is the implied one (~15 B a call), and the
 * server puts it back at ingest with {@link fillImpliedSummary}, so every
 * read (API, filters, rollups, export) has it as before.
 */

/** The status a complete or end record implies: `error` with an exception, `success` without. */
export function impliedStatus(exception: ExceptionInfo | undefined): CallStatus {
  return exception === undefined ? 'success' : 'error';
}

/** Whether a complete or end record may leave `summary.status` out: it is the one its exception implies. */
export function statusIsImplied(exception: ExceptionInfo | undefined, summary: CallSummary): boolean {
  return summary.status === impliedStatus(exception);
}

/**
 * Puts `summary.status` back into a complete or end record whose summary left
 * it out (the status its exception implies); a record without a summary, or
 * any other record, is left as it is. Changes `item` in place.
 */
export function fillImpliedStatus(item: CallItem): void {
  if (item.type !== 'complete' && item.type !== 'end') return;
  const { summary } = item;
  // Checked, not trusted: the SDK's transcoding runs on records no schema has checked.
  if (typeof summary !== 'object' || summary === null || summary.status !== undefined) return;
  summary.status = impliedStatus(item.exception);
}

/**
 * Puts back every summary field a record may leave out as implied — a
 * complete record's `latencyMs` ({@link fillCompleteLatency}) and a complete
 * or end record's `status` ({@link fillImpliedStatus}) — where ingest (and the
 * SDK's transcoding for older servers) reads a call record.
 */
export function fillImpliedSummary(item: CallItem): void {
  fillCompleteLatency(item);
  fillImpliedStatus(item);
}
