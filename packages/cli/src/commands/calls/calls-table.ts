import { type Call, formatUsd } from '@weft/protocol';
import { formatPlainTable } from '../plain-table.js';
import { opNameOf } from './op-name-of.js';
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
    formatStarted(call.startedAt),
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

function formatStarted(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

function formatLatency(call: Call): string {
  const ms = call.summary?.latencyMs ?? (call.endedAt === null ? undefined : call.endedAt - call.startedAt);
  if (ms === undefined) return '-';
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(2)} s`;
}

/** Total tokens over every model the call (and its descendants) used; `-` when none were reported. */
function formatTokens(call: Call): string {
  const usage = call.summary?.usage;
  if (!usage) return '-';
  const models = Object.values(usage);
  if (models.length === 0) return '-';
  return models.reduce((sum, m) => sum + m.totalTokens, 0).toLocaleString('en-US');
}
