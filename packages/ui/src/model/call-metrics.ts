import type { Call } from '../api/index.js';

/** Latency in ms: the summary's when the SDK gave one, else end minus start; undefined while running. */
export function callLatencyMs(call: Pick<Call, 'summary' | 'startedAt' | 'endedAt'>): number | undefined {
  const given = call.summary?.latencyMs;
  if (typeof given === 'number') return given;
  return call.endedAt === null ? undefined : call.endedAt - call.startedAt;
}

/** Total tokens over every model in the call's usage (which includes its descendants'). */
export function callTokens(call: Pick<Call, 'summary'>): number | undefined {
  const usage = call.summary?.usage;
  if (usage === undefined) return undefined;
  let total = 0;
  for (const model of Object.values(usage)) {
    total += model.totalTokens || model.inputTokens + model.outputTokens;
  }
  return total;
}

/** The exact cost for a tooltip (the cell shows it rounded); undefined without one. */
export function costTitle(costUsd: number | undefined): string | undefined {
  return costUsd === undefined ? undefined : `US$ ${costUsd} (this call and its descendants)`;
}

/** The op's plain name: `weft:///p/op/<name>:<digest>` shows as `<name>`. */
export function plainOpName(opName: string): string {
  const match = /^weft:\/\/\/[^/]+\/op\/(.+):[A-Za-z0-9_-]{43}$/.exec(opName);
  return match?.[1] ?? opName;
}
