import { addHistogram, addToBin, binOf, type LogHistogram } from './log-histogram.js';

/**
 * What a call rollup row adds up. Every field is a sum, so rows merge by
 * addition and a call is taken out by subtraction; time sums are whole
 * microseconds and costs whole nano-dollars, so they stay exact integers in
 * any order of addition.
 */
export interface CallRollupValues {
  /** Calls. */
  n: number;
  /** Sum of latencies (µs) of ended calls; the latency histogram counts them (ms). */
  latencySumUs: number;
  latency: LogHistogram;
  /** Calls with a time to first token, its sum (µs) and histogram (ms). */
  ttftN: number;
  ttftSumUs: number;
  ttft: LogHistogram;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  totalTokens: number;
  /** Calls with a cost, and its sum in nano-dollars. */
  costN: number;
  costNano: number;
}

/** What a feedback rollup row adds up: every feedback, the numeric ones (booleans as 1/0), and counts per value. */
export interface FeedbackRollupValues {
  n: number;
  numericN: number;
  sum: number;
  sumSquares: number;
  /** Value (as `distributionKey` gives it) → count. */
  distribution: Map<string, number>;
}

export function emptyCallValues(): CallRollupValues {
  return {
    n: 0,
    latencySumUs: 0,
    latency: new Map(),
    ttftN: 0,
    ttftSumUs: 0,
    ttft: new Map(),
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    totalTokens: 0,
    costN: 0,
    costNano: 0,
  };
}

export function emptyFeedbackValues(): FeedbackRollupValues {
  return { n: 0, numericN: 0, sum: 0, sumSquares: 0, distribution: new Map() };
}

/** The plain sums of {@link CallRollupValues} (everything but the histograms), in storage column order. */
export const CALL_SUMS = [
  'n',
  'latencySumUs',
  'ttftN',
  'ttftSumUs',
  'inputTokens',
  'outputTokens',
  'cachedTokens',
  'reasoningTokens',
  'totalTokens',
  'costN',
  'costNano',
] as const;

/** One of {@link CALL_SUMS}. */
export type CallSum = (typeof CALL_SUMS)[number];

/** Adds `from` × `sign` into `into`. */
export function addCallValues(into: CallRollupValues, from: CallRollupValues, sign = 1): void {
  for (const field of CALL_SUMS) into[field] += from[field] * sign;
  addHistogram(into.latency, from.latency, sign);
  addHistogram(into.ttft, from.ttft, sign);
}

export function addFeedbackValues(into: FeedbackRollupValues, from: FeedbackRollupValues, sign = 1): void {
  into.n += from.n * sign;
  into.numericN += from.numericN * sign;
  into.sum += from.sum * sign;
  into.sumSquares += from.sumSquares * sign;
  for (const [value, count] of from.distribution) addCount(into.distribution, value, count * sign);
}

/** Whether every sum and count is 0: a row that adds nothing (its call was taken out). */
export function isZeroCallValues(values: CallRollupValues): boolean {
  return (
    CALL_SUMS.every((field) => values[field] === 0) && values.latency.size === 0 && values.ttft.size === 0
  );
}

export function isZeroFeedbackValues(values: FeedbackRollupValues): boolean {
  return values.n === 0 && values.numericN === 0 && values.distribution.size === 0;
}

/** Milliseconds as whole microseconds. */
export function microseconds(ms: number): number {
  return Math.round(ms * 1_000);
}

/** Counts one latency (ms) into `values`. */
export function countLatency(values: CallRollupValues, ms: number): void {
  values.latencySumUs += microseconds(ms);
  addToBin(values.latency, binOf(ms), 1);
}

export function countTtft(values: CallRollupValues, ms: number): void {
  values.ttftN += 1;
  values.ttftSumUs += microseconds(ms);
  addToBin(values.ttft, binOf(ms), 1);
}

/**
 * The key a feedback value is counted under in a distribution: `true` /
 * `false`, the label itself (prefixed `s:` so a label "1" is not the number
 * 1), or the number rounded to 2 decimals (scores of 0–1 give at most 101
 * keys, ratings 1–5 five).
 */
export function distributionKey(value: boolean | number | string): string {
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return String(Math.round(value * 100) / 100);
  return `s:${value}`;
}

export function addCount(into: Map<string, number>, key: string, count: number): void {
  const next = (into.get(key) ?? 0) + count;
  if (next === 0) into.delete(key);
  else into.set(key, next);
}
