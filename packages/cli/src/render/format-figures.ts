import type { Call } from '@weft/protocol';

// How figures read in every table, outline and tool answer of the CLI.

/** `2026-01-02 03:04:05.006` (UTC). */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** `350 ms`, `1.25 s`. */
export function formatMs(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(2)} s`;
}

/** `1,234`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A call's latency: its summary's, else end − start; undefined while it runs. */
export function latencyOf(call: Call): number | undefined {
  return call.summary?.latencyMs ?? (call.endedAt === null ? undefined : call.endedAt - call.startedAt);
}

/** Total tokens over every model the call (and its descendants) used; undefined when none were reported. */
export function totalTokensOf(call: Call): number | undefined {
  const models = Object.values(call.summary?.usage ?? {});
  if (models.length === 0) return undefined;
  return models.reduce((sum, m) => sum + m.totalTokens, 0);
}
