import { formatUsd } from '@weft/protocol';

// Figures in an outline: as short as they can be read, since each token counts.

/** `850ms`, `1.2s`, `2m05s`. */
export function compactMs(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)}s`;
  const s = Math.round(ms / 1_000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** `950`, `12.3k`, `1.2M`. */
export function compactCount(n: number): string {
  if (n < 1_000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1_000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** ` $0.0123`, or nothing without a cost (absent, never $0). */
export function compactUsd(usd: number | undefined): string {
  return usd === undefined ? '' : ` ${formatUsd(usd)}`;
}

/** A call's short id in an outline: its last 16 hex digits (its W3C span id), unique in its trace. */
export function shortId(id: string): string {
  return id.replaceAll('-', '').slice(16);
}
