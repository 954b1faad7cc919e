import { type Call, formatUsd } from '@weft/protocol';
import { formatCount, formatMs, formatTime, latencyOf, opNameOf, totalTokensOf } from '../render/index.js';

/**
 * One call as a line of a tool answer: when, op, status, latency, tokens,
 * cost, the full ids (what the other tools take), the error, and the
 * matching passage of a text search.
 */
export function callLine(call: Call): string {
  const latency = latencyOf(call);
  const tokens = totalTokensOf(call);
  const parts = [
    formatTime(call.startedAt),
    opNameOf(call.opName) + (call.displayName ? ` "${call.displayName}"` : ''),
    call.status,
    latency === undefined ? '-' : formatMs(latency),
    tokens === undefined ? '' : `${formatCount(tokens)} tokens`,
    formatUsd(call.summary?.costUsd),
    `call=${call.id}`,
    call.parentId === null ? 'root' : `trace=${call.traceId}`,
  ].filter((p) => p !== '');
  let line = parts.join('  ');
  if (call.exception)
    line += `\n    ! ${call.exception.name}: ${call.exception.message.replace(/\s+/g, ' ').slice(0, 300)}`;
  if (call.snippet) line += `\n    …${call.snippet.map((p) => (p.match ? `[${p.text}]` : p.text)).join('')}…`;
  return line;
}
