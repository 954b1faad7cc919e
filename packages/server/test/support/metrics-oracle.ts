import type { Call, CallFilter, MetricGroupBy, MetricsQueryResponse } from '@weft/protocol';
import { expect } from 'vitest';

/** The relative error the server states for percentiles (checked against its answer). */
const ALPHA = 0.01;

/**
 * What a metric is over `calls` (read back from the server), computed here
 * from scratch — sorting for percentiles, plain sums — to check a metrics
 * answer against: counts and token sums must be equal, times and costs
 * within their stored rounding (1 µs, 1 nano-dollar per call), percentiles
 * within the stated relative error.
 */
export function expectMetricsMatch(
  answer: MetricsQueryResponse,
  calls: readonly Call[],
  query: {
    filter?: CallFilter;
    groupBy?: MetricGroupBy;
    measures: readonly (string | { feedback: string; stat?: string })[];
  },
): void {
  const { buckets, to } = answer;
  const slots = new Map<string, Call[]>();
  for (const call of calls) {
    if (call.startedAt < (buckets[0] as number) || call.startedAt >= to || !matches(call, query.filter ?? {}))
      continue;
    let bucket = 0;
    while (bucket + 1 < buckets.length && (buckets[bucket + 1] as number) <= call.startedAt) bucket++;
    for (const group of groupsOf(call, query.groupBy, query.filter ?? {})) {
      const key = `${group}\u0000${bucket}`;
      slots.set(key, [...(slots.get(key) ?? []), call]);
    }
  }
  for (const series of answer.series) {
    series.values.forEach((value, bucket) => {
      const inSlot = slots.get(`${series.group}\u0000${bucket}`) ?? [];
      const where = `${JSON.stringify(query.filter ?? {})} ${query.groupBy ?? ''}: ${series.measure} of ${series.group} in bucket ${bucket} (${inSlot.length} calls)`;
      const byModel = query.groupBy === 'model' ? series.group : null;
      checkMeasure(series.measure, byModel, inSlot, value, series.distribution?.[bucket], where);
    });
  }
  // Every group with calls is in the answer (the scenarios stay under maxGroups).
  const answered = new Set(answer.series.map((s) => s.group));
  for (const key of slots.keys())
    expect(answered, `group of ${key}`).toContain(
      key.split('\u0000')[0] === 'null' ? null : key.split('\u0000')[0],
    );
}

/** `model`: in a split by model, the series' model (its share of each call's usage counts). */
function checkMeasure(
  measure: string,
  model: string | null,
  calls: readonly Call[],
  value: number | null,
  distribution: Record<string, number> | undefined,
  where: string,
): void {
  const ended = calls.filter((c) => c.endedAt !== null);
  const latencies = ended.map((c) => c.summary?.latencyMs ?? (c.endedAt as number) - c.startedAt);
  const ttfts = calls.flatMap((c) =>
    c.summary?.timeToFirstTokenMs === undefined ? [] : [c.summary.timeToFirstTokenMs],
  );
  const usages = calls.flatMap((c) =>
    Object.entries(c.summary?.usage ?? {})
      .filter(([name]) => model === null || name === model)
      .map(([, usage]) => usage),
  );
  const errors = calls.filter((c) => c.status === 'error').length;
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  switch (measure) {
    case 'count':
      expect(value, where).toBe(calls.length);
      return;
    case 'errors':
      expect(value, where).toBe(errors);
      return;
    case 'errorRate':
      expect(value, where).toBe(ended.length === 0 ? null : errors / ended.length);
      return;
    case 'latency.mean':
      expectClose(value, ended.length === 0 ? null : sum(latencies) / ended.length, 1e-3, where);
      return;
    case 'latency.p50':
    case 'latency.p95':
    case 'latency.p99':
      expectQuantile(value, latencies, Number(measure.slice(-2)) / 100, where);
      return;
    case 'ttft.p95':
      expectQuantile(value, ttfts, 0.95, where);
      return;
    case 'tokens.input':
      expect(value, where).toBe(sum(usages.map((u) => u.inputTokens)));
      return;
    case 'tokens.output':
      expect(value, where).toBe(sum(usages.map((u) => u.outputTokens)));
      return;
    case 'tokens.cached':
      expect(value, where).toBe(sum(usages.map((u) => u.cachedInputTokens ?? 0)));
      return;
    case 'cost': {
      const costs =
        model !== null
          ? usages.flatMap((u) => (u.costUsd === undefined ? [] : [u.costUsd]))
          : calls.flatMap((c) => (c.summary?.costUsd === undefined ? [] : [c.summary.costUsd]));
      expectClose(value, costs.length === 0 ? null : sum(costs), 1e-9 * (costs.length + 1), where);
      return;
    }
  }
  const feedback = /^feedback:(.+):(mean|distribution)$/.exec(measure);
  if (feedback === null) throw new Error(`no oracle for ${measure}`);
  const given = calls.flatMap((c) =>
    (c.feedback ?? []).filter((f) => f.name === feedback[1]).map((f) => f.value),
  );
  if (feedback[2] === 'mean') {
    const numbers = given.flatMap((v) =>
      typeof v === 'string' ? [] : [typeof v === 'boolean' ? Number(v) : v],
    );
    expectClose(value, numbers.length === 0 ? null : sum(numbers) / numbers.length, 1e-9, where);
    return;
  }
  const counts: Record<string, number> = {};
  for (const v of given) {
    const key = typeof v === 'number' ? String(Math.round(v * 100) / 100) : String(v);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  expect(distribution ?? {}, where).toEqual(counts);
}

function expectClose(actual: number | null, expected: number | null, tolerance: number, where: string): void {
  if (expected === null) {
    expect(actual, where).toBeNull();
    return;
  }
  expect(actual, where).not.toBeNull();
  expect(Math.abs((actual as number) - expected), `${where}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
    tolerance,
  );
}

/** The value of rank ⌊q·(n−1)⌋, as the server defines its percentiles; the estimate within α of it (values ≤ 1 µs read as 0). */
function expectQuantile(actual: number | null, values: readonly number[], q: number, where: string): void {
  if (values.length === 0) {
    expect(actual, where).toBeNull();
    return;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const exact = sorted[Math.floor(q * (sorted.length - 1))] as number;
  const tolerance = exact <= 1e-3 ? 1e-3 : ALPHA * exact * (1 + 1e-9);
  expect(Math.abs((actual as number) - exact), `${where}: ${actual} vs exact ${exact}`).toBeLessThanOrEqual(
    tolerance,
  );
}

function matches(call: Call, filter: CallFilter): boolean {
  const attributes = call.attributes as Record<string, unknown>;
  if (filter.parentId === null && call.parentId !== null) return false;
  if (filter.status !== undefined && ![filter.status].flat().includes(call.status)) return false;
  if (filter.opName !== undefined && ![filter.opName].flat().includes(call.opName)) return false;
  if (filter.userId !== undefined && attributes['user.id'] !== filter.userId) return false;
  if (filter.sessionId !== undefined && call.sessionId !== filter.sessionId) return false;
  const wanted = filter.feedback;
  if (
    wanted !== undefined &&
    !(call.feedback ?? []).some(
      (f) =>
        (wanted.name === undefined || f.name === wanted.name) &&
        (wanted.value === undefined || f.value === wanted.value),
    )
  )
    return false;
  for (const tag of filter.tag === undefined ? [] : [filter.tag].flat()) {
    if (!((attributes.tags as string[] | undefined) ?? []).includes(tag)) return false;
  }
  for (const [key, value] of Object.entries(filter.attributes ?? {})) {
    const stored = attributes[key];
    if (Array.isArray(stored) ? !stored.includes(value) : stored !== value) return false;
  }
  return true;
}

function groupsOf(call: Call, groupBy: MetricGroupBy | undefined, filter: CallFilter): (string | null)[] {
  const attributes = call.attributes as Record<string, unknown>;
  switch (groupBy) {
    case undefined:
      return [null];
    case 'op':
      return [call.opName];
    case 'model':
      return Object.keys(call.summary?.usage ?? {});
    case 'version':
      return attributes.version === undefined ? [] : [String(attributes.version)];
    case 'user':
      return attributes['user.id'] === undefined ? [] : [String(attributes['user.id'])];
    case 'session':
      return call.sessionId ? [call.sessionId] : [];
    case 'tag': {
      const wanted = filter.tag === undefined ? undefined : [filter.tag].flat();
      return ((attributes.tags as string[] | undefined) ?? []).filter(
        (t) => wanted === undefined || wanted.includes(t),
      );
    }
  }
}
