import { type Call, formatUsd } from '@weft/protocol';
import { formatCount, formatMs, formatTime, latencyOf, totalTokensOf } from '../../render/index.js';
import { formatPlainTable } from '../../render/index.js';
import { opNameOf } from '../../render/index.js';
import type { CallAtDepth } from './trace-order.js';

/** Column titles of `weft calls`, in order. */
export const CALLS_COLUMNS = [
  'started (UTC)',
  'op',
  'status',
  'latency',
  'tokens',
  'cost',
  'id',
  'trace',
] as const;

/**
 * One table row: the cells exactly as printed. `depth` indents the op name
 * so a trace reads as a tree. The cost cell is blank when the call has no
 * `summary.costUsd` (no usage, or only unpriced models): absent, never $0.
 */
export function callRow({ call, depth }: CallAtDepth): string[] {
  return [
    formatTime(call.startedAt),
    `${depth > 0 ? `${'  '.repeat(depth - 1)}└─ ` : ''}${opNameOf(call.opName)}`,
    call.status,
    formatLatency(call),
    formatTokens(call),
    formatUsd(call.summary?.costUsd),
    call.id,
    call.traceId,
  ];
}

/** The calls as a plain text table: header, a rule, one line per call. */
export function formatCallsTable(rows: readonly CallAtDepth[]): string {
  return formatPlainTable(CALLS_COLUMNS, rows.map(callRow));
}

function formatLatency(call: Call): string {
  const ms = latencyOf(call);
  return ms === undefined ? '-' : formatMs(ms);
}

function formatTokens(call: Call): string {
  const tokens = totalTokensOf(call);
  return tokens === undefined ? '-' : formatCount(tokens);
}
