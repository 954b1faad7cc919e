import type { CallItem, CallSummary } from './calls.js';

/**
 * A complete record's summary may leave `latencyMs` out where it is
 * `endedAt − startedAt` (both in the record): from protocol 3 the SDK does
 * (~20 B a call), and the server puts it back at ingest with
 * {@link fillCompleteLatency}, so every read (API, search, sort, rollups,
 * export) has it as before. An `end` record always carries it (its start is
 * elsewhere).
 */

/** Whether a complete record may leave `summary.latencyMs` out: it is exactly `endedAt − startedAt`. */
export function latencyIsImplied(startedAt: number, endedAt: number, summary: CallSummary): boolean {
  return summary.latencyMs === endedAt - startedAt;
}

/**
 * Puts `summary.latencyMs` (`endedAt − startedAt`, never negative) back into
 * a complete record whose summary left it out; any other record is left as
 * it is. Changes `item` in place (ingest owns the decoded records).
 */
export function fillCompleteLatency(item: CallItem): void {
  if (item.type !== 'complete') return;
  const { summary, startedAt, endedAt } = item;
  // Checked, not trusted: the SDK's transcoding runs on records no schema has checked.
  if (typeof summary !== 'object' || summary === null || summary.latencyMs !== undefined) return;
  if (typeof startedAt !== 'number' || typeof endedAt !== 'number') return;
  summary.latencyMs = Math.max(0, endedAt - startedAt);
}
