import { type Call, parseRef } from '@weft/protocol';
import Table from 'cli-table3';
import type { CallAtDepth } from './trace-order.js';

/** Column titles of `weft calls`, in order. */
export const CALLS_COLUMNS = ['started (UTC)', 'op', 'status', 'latency', 'tokens', 'id', 'trace'] as const;

/**
 * One table row: the cells exactly as printed. `depth` indents the op name
 * so a trace reads as a tree.
 */
export function callRow({ call, depth }: CallAtDepth): string[] {
  return [
    formatStarted(call.startedAt),
    `${depth > 0 ? `${'  '.repeat(depth - 1)}└─ ` : ''}${opLabel(call.opName)}`,
    call.status,
    formatLatency(call),
    formatTokens(call),
    call.id,
    call.traceId,
  ];
}

/** The calls as a bordered text table (no colours, so it reads the same in a pipe). */
export function formatCallsTable(rows: readonly CallAtDepth[]): string {
  const table = new Table({
    head: [...CALLS_COLUMNS],
    style: { head: [], border: [] },
    // No rule between data rows: a trace of 50 calls should fit a screen.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const row of rows) table.push(callRow(row));
  return table.toString();
}

function formatStarted(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** Op refs (`weft:///p/op/name:digest`) show as their name; plain names as they are. */
function opLabel(opName: string): string {
  if (!opName.startsWith('weft:///')) return opName;
  try {
    const ref = parseRef(opName);
    return ref.kind === 'op' || ref.kind === 'object' ? ref.name : opName;
  } catch {
    return opName;
  }
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
