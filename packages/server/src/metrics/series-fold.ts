import {
  type CallMeasure,
  type FeedbackMeasure,
  type MetricSeries,
  type MetricsQueryParsed,
  setOwnKey,
  tCritical95,
  Z_975,
} from '@weft/protocol';
import {
  addCallValues,
  addFeedbackValues,
  type CallRollupRow,
  type CallRollupValues,
  emptyCallValues,
  emptyFeedbackValues,
  type FeedbackRollupRow,
  type FeedbackRollupValues,
  quantilesOf,
  type RollupStatus,
} from '../storage/index.js';
import { bucketIndex } from './time-buckets.js';

/** One group's call values per bucket, by status. */
type StatusValues = Partial<Record<RollupStatus, CallRollupValues>>;

interface GroupData {
  calls: StatusValues[];
  /** Per feedback name, per bucket. */
  feedback: Map<string, FeedbackRollupValues[]>;
  /** Calls counted (or feedback, for a query of feedback only): what groups are ranked by. */
  weight: number;
}

/** What the fold needs besides the rows. */
export interface FoldOptions {
  starts: readonly number[];
  /** Statuses kept; all when undefined. */
  statuses: readonly RollupStatus[] | undefined;
  /** Groups kept (an op filter with a split by op); all when undefined. */
  groups: ReadonlySet<string> | undefined;
}

/**
 * Adds the rows up per group and bucket and computes each measure of the
 * query: one series per measure and group, groups ranked by calls counted
 * (the `maxGroups` largest kept).
 */
export function foldSeries(
  query: MetricsQueryParsed,
  calls: readonly CallRollupRow[],
  feedback: readonly FeedbackRollupRow[],
  options: FoldOptions,
): { series: MetricSeries[]; groupsOmitted: number } {
  const { starts } = options;
  const groups = new Map<string | null, GroupData>();
  const group = (name: string | null): GroupData | undefined => {
    if (name !== null && options.groups !== undefined && !options.groups.has(name)) return undefined;
    let data = groups.get(name);
    if (data === undefined) {
      data = { calls: starts.map(() => ({})), feedback: new Map(), weight: 0 };
      groups.set(name, data);
    }
    return data;
  };
  for (const row of calls) {
    if (options.statuses !== undefined && !options.statuses.includes(row.status)) continue;
    const data = group(row.group);
    if (data === undefined) continue;
    const slot = data.calls[bucketIndex(starts, row.t)] as StatusValues;
    data.weight += row.values.n;
    // The first row of a slot is taken as it is (the fold owns the rows): a
    // read adds up each range, so a slot rarely gets more than one per status.
    const values = slot[row.status];
    if (values === undefined) slot[row.status] = row.values;
    else addCallValues(values, row.values);
  }
  const onlyFeedback = query.measures.every((m) => typeof m === 'object');
  for (const row of feedback) {
    const data = group(row.group);
    if (data === undefined) continue;
    let perBucket = data.feedback.get(row.name);
    if (perBucket === undefined) {
      perBucket = starts.map(() => emptyFeedbackValues());
      data.feedback.set(row.name, perBucket);
    }
    addFeedbackValues(perBucket[bucketIndex(starts, row.t)] as FeedbackRollupValues, row.values);
    if (onlyFeedback) data.weight += row.values.n;
  }
  if (query.groupBy === undefined && !groups.has(null)) group(null);
  const ranked = [...groups].sort(
    (a, b) => b[1].weight - a[1].weight || String(a[0]).localeCompare(String(b[0])),
  );
  const kept = ranked.slice(0, query.maxGroups);
  const series: MetricSeries[] = [];
  // Each slot's statuses added up once for all the measures (histograms are the costly part).
  const percentiles = query.measures.filter((m) => typeof m === 'string' && m in PERCENTILES) as Percentile[];
  const totals = new Map(
    kept.map(([name, data]) => [name, data.calls.map((slot) => slotTotals(slot, percentiles))]),
  );
  for (const measure of query.measures) {
    for (const [name, data] of kept) {
      const slots = totals.get(name) as SlotTotals[];
      series.push(
        typeof measure === 'string'
          ? { measure, group: name, values: slots.map((slot) => callMeasureValue(measure, slot)) }
          : feedbackSeries(
              measure,
              name,
              data.feedback.get(measure.feedback) ?? starts.map(() => emptyFeedbackValues()),
            ),
      );
    }
  }
  return { series, groupsOmitted: ranked.length - kept.length };
}

/** The percentile measures, each a quantile of latencies (ended calls) or of times to first token (all calls). */
const PERCENTILES = {
  'latency.p50': { histogram: 'latency', q: 0.5 },
  'latency.p95': { histogram: 'latency', q: 0.95 },
  'latency.p99': { histogram: 'latency', q: 0.99 },
  'ttft.p50': { histogram: 'ttft', q: 0.5 },
  'ttft.p95': { histogram: 'ttft', q: 0.95 },
  'ttft.p99': { histogram: 'ttft', q: 0.99 },
} as const satisfies Partial<Record<CallMeasure, { histogram: 'latency' | 'ttft'; q: number }>>;
type Percentile = keyof typeof PERCENTILES;

/** A slot's values over every status (`all`), over ended calls, its errors, and the query's percentiles. */
interface SlotTotals {
  all: CallRollupValues;
  ended: CallRollupValues;
  errors: number;
  percentiles: Map<Percentile, number | null>;
}

/**
 * Adds the statuses of `slot` up, reusing its values (read once, by this,
 * after the fold), and reads `percentiles` off them: one walk of each
 * histogram's sorted bins for all of its percentiles.
 */
function slotTotals(slot: StatusValues, percentiles: readonly Percentile[]): SlotTotals {
  const errors = slot.error?.n ?? 0;
  const ended = sumInto([slot.success, slot.error]);
  const all = slot.running === undefined ? ended : sumInto([clone(ended), slot.running]);
  const values = new Map<Percentile, number | null>();
  for (const [histogram, of] of [
    ['latency', ended.latency],
    ['ttft', all.ttft],
  ] as const) {
    const wanted = percentiles.filter((measure) => PERCENTILES[measure].histogram === histogram);
    if (wanted.length === 0) continue;
    const quantiles = quantilesOf(
      of,
      wanted.map((measure) => PERCENTILES[measure].q),
    );
    for (const [i, measure] of wanted.entries()) values.set(measure, quantiles[i] as number | null);
  }
  return { all, ended, errors, percentiles: values };
}

/** The first of `list` with the others added into it; an empty value when none. */
function sumInto(list: readonly (CallRollupValues | undefined)[]): CallRollupValues {
  const present = list.filter((values) => values !== undefined);
  const into = present[0] ?? emptyCallValues();
  for (const values of present.slice(1)) addCallValues(into, values);
  return into;
}

function clone(values: CallRollupValues): CallRollupValues {
  const copy = emptyCallValues();
  addCallValues(copy, values);
  return copy;
}

function callMeasureValue(
  measure: CallMeasure,
  { all, ended, errors, percentiles }: SlotTotals,
): number | null {
  switch (measure) {
    case 'count':
      return all.n;
    case 'errors':
      return errors;
    case 'errorRate':
      return ended.n === 0 ? null : errors / ended.n;
    case 'latency.mean':
      return ended.n === 0 ? null : ended.latencySumUs / ended.n / 1_000;
    case 'latency.p50':
    case 'latency.p95':
    case 'latency.p99':
    case 'ttft.p50':
    case 'ttft.p95':
    case 'ttft.p99':
      return percentiles.get(measure) ?? null;
    case 'ttft.mean':
      return all.ttftN === 0 ? null : all.ttftSumUs / all.ttftN / 1_000;
    case 'tokens.input':
      return all.inputTokens;
    case 'tokens.output':
      return all.outputTokens;
    case 'tokens.cached':
      return all.cachedTokens;
    case 'tokens.reasoning':
      return all.reasoningTokens;
    case 'tokens.total':
      return all.totalTokens;
    case 'cost':
      // No priced call is no cost, never $0.
      return all.costN === 0 ? null : all.costNano / 1e9;
  }
}

/** The series key of a feedback measure. */
export function feedbackMeasureKey(measure: { feedback: string; stat: string }): string {
  return `feedback:${measure.feedback}:${measure.stat}`;
}

function feedbackSeries(
  measure: FeedbackMeasure,
  group: string | null,
  perBucket: readonly FeedbackRollupValues[],
): MetricSeries {
  const stat = measure.stat ?? 'mean';
  const key = feedbackMeasureKey({ feedback: measure.feedback, stat });
  if (stat === 'distribution') {
    return {
      measure: key,
      group,
      values: perBucket.map((values) => values.n),
      distribution: perBucket.map((values) => distributionOf(values.distribution)),
    };
  }
  const intervals = perBucket.map(meanInterval);
  return {
    measure: key,
    group,
    values: intervals.map((i) => i.mean),
    low: intervals.map((i) => i.low),
    high: intervals.map((i) => i.high),
    n: perBucket.map((values) => values.numericN),
  };
}

/**
 * The mean of numeric feedback with its 95% interval: Wilson's score
 * interval when every value is a boolean (a pass rate stays within 0…1 and
 * is sensible at 0% and 100%), Student's t otherwise; no interval below two
 * values.
 */
function meanInterval(values: FeedbackRollupValues): {
  mean: number | null;
  low: number | null;
  high: number | null;
} {
  const n = values.numericN;
  if (n === 0) return { mean: null, low: null, high: null };
  const mean = values.sum / n;
  if (n < 2) return { mean, low: null, high: null };
  const booleans = [...values.distribution.keys()].every((key) => key === 'true' || key === 'false');
  if (booleans) {
    const z = Z_975;
    const center = (mean + (z * z) / (2 * n)) / (1 + (z * z) / n);
    const half = (z / (1 + (z * z) / n)) * Math.sqrt((mean * (1 - mean)) / n + (z * z) / (4 * n * n));
    return { mean, low: center - half, high: center + half };
  }
  const variance = Math.max(0, (values.sumSquares - n * mean * mean) / (n - 1));
  const half = (tCritical95(n - 1) * Math.sqrt(variance)) / Math.sqrt(n);
  return { mean, low: mean - half, high: mean + half };
}

/** Counts per value as users read them: `true`/`false`, the number, the label. */
function distributionOf(counts: ReadonlyMap<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, count] of counts) {
    const name = key.startsWith('s:') ? key.slice(2) : key;
    setOwnKey(out, name, (Object.hasOwn(out, name) ? (out[name] as number) : 0) + count);
  }
  return out;
}
