import { createHash } from 'node:crypto';
import { totalTokensOf } from '../render/index.js';
import { compactCount, compactMs, compactUsd, shortId } from './compact-figures.js';
import type { TraceNode } from './trace-tree.js';

// The lines an outline is made of: a call, a group of sibling calls of one op, a value preview.

const STATUS = { success: 'ok', error: 'ERR', running: 'running' } as const;

/** Characters of a value shown before it is cut. */
const PREVIEW_CHARS = 160;
/** Characters of an error message shown: more for a failing call that caused the others. */
const MESSAGE_CHARS = { cause: 300, other: 100 } as const;

/** `search ERR 12ms 1.2k tok $0.0021 #9a8b7c6d5e4f3a2b <- slowest ! TimeoutError: …` */
export function callLine(node: TraceNode, mark: string | undefined, cause: boolean): string {
  const { call } = node;
  const tokens = totalTokensOf(call);
  let line = `${node.op} ${STATUS[call.status]} ${call.status === 'running' ? '' : compactMs(node.latencyMs)}`;
  if (tokens !== undefined) line += ` ${compactCount(tokens)}tok`;
  line += `${compactUsd(call.summary?.costUsd)} #${shortId(call.id)}`;
  if (mark !== undefined) line += ` <- ${mark}`;
  if (call.exception) {
    const text = `${call.exception.name}: ${call.exception.message}`.replace(/\s+/g, ' ');
    const max = cause ? MESSAGE_CHARS.cause : MESSAGE_CHARS.other;
    line += ` ! ${text.length > max ? `${text.slice(0, max)}…` : text}`;
  }
  return line.replace(/ {2,}/g, ' ');
}

/** `(+12 calls below)` for a call whose descendants are not shown. */
export function hiddenBelow(node: TraceNode): string {
  const n = node.size - 1;
  return n > 0
    ? ` (+${compactCount(n)} below${node.errors > (node.call.status === 'error' ? 1 : 0) ? ', has ERR' : ''})`
    : '';
}

/** `search x240 (238 ok, 2 ERR) p50 12ms max 3.1s 48k tok $0.12` */
export function groupLine(op: string, members: readonly TraceNode[]): string {
  const latencies = members.map((m) => m.latencyMs).sort((a, b) => a - b);
  const errors = members.filter((m) => m.call.status === 'error').length;
  const running = members.filter((m) => m.call.status === 'running').length;
  const ok = members.length - errors - running;
  const tokens = members.reduce((sum, m) => sum + (totalTokensOf(m.call) ?? 0), 0);
  const costs = members.map((m) => m.call.summary?.costUsd).filter((c): c is number => c !== undefined);
  const states = [`${ok} ok`, errors > 0 ? `${errors} ERR` : '', running > 0 ? `${running} running` : '']
    .filter(Boolean)
    .join(', ');
  let line = `${op} x${members.length} (${states}) p50 ${compactMs(latencies[Math.floor((latencies.length - 1) / 2)]!)} max ${compactMs(latencies.at(-1)!)}`;
  if (tokens > 0) line += ` ${compactCount(tokens)}tok`;
  line += compactUsd(costs.length > 0 ? costs.reduce((a, b) => a + b, 0) : undefined);
  const below = members.reduce((sum, m) => sum + m.size - 1, 0);
  if (below > 0) line += ` (+${compactCount(below)} below)`;
  return line;
}

/** `in: {"order":123}` or, cut, `out: {"text":"…"… [2,345 chars v:Ab12Cd34]` (the digest names the whole value). */
export function valueLine(label: 'in' | 'out', value: unknown): string {
  const json = JSON.stringify(value) ?? 'undefined';
  if (json.length <= PREVIEW_CHARS) return `${label}: ${json}`;
  const digest = createHash('sha256').update(json).digest('base64url').slice(0, 8);
  return `${label}: ${json.slice(0, PREVIEW_CHARS)}… [${json.length.toLocaleString('en-US')} chars v:${digest}]`;
}
