import {
  addCallValues,
  addFeedbackValues,
  type CallRollupKey,
  type CallRollupValues,
  emptyCallValues,
  emptyFeedbackValues,
  type FeedbackRollupKey,
  type FeedbackRollupValues,
  isZeroCallValues,
  isZeroFeedbackValues,
  type RollupHistogram,
} from '../rollup/index.js';
import { histogramBlob, histogramOfBlob } from './histogram-blob.js';

const BOTH_HISTOGRAMS: readonly RollupHistogram[] = ['latency', 'ttft'];

/** A stored rollup row's values, and what adding a change to them gives (`undefined`: nothing left, delete the row). */
interface StoredRow<V> {
  add(change: V): V | undefined;
}

/** Reads a `call_rollups` row (absent: zeros). */
export function callRollupValues(row: Record<string, unknown> | undefined): StoredRow<CallRollupValues> {
  const values = row === undefined ? emptyCallValues() : callValuesOfRow(row, BOTH_HISTOGRAMS);
  return {
    add(change) {
      addCallValues(values, change);
      return isZeroCallValues(values) ? undefined : values;
    },
  };
}

/** The sums of a `call_rollups` row (or of a SUM over rows, with the same column names), and the histograms asked for. */
export function callValuesOfRow(
  row: Record<string, unknown>,
  histograms: readonly RollupHistogram[],
): CallRollupValues {
  const values = emptyCallValues();
  values.n = Number(row.n);
  values.latencySumUs = Number(row.latency_sum_us);
  values.ttftN = Number(row.ttft_n);
  values.ttftSumUs = Number(row.ttft_sum_us);
  values.inputTokens = Number(row.input_tokens);
  values.outputTokens = Number(row.output_tokens);
  values.cachedTokens = Number(row.cached_tokens);
  values.reasoningTokens = Number(row.reasoning_tokens);
  values.totalTokens = Number(row.total_tokens);
  values.costN = Number(row.cost_n);
  values.costNano = Number(row.cost_nano);
  for (const histogram of histograms)
    values[histogram] = histogramOfBlob(row[`${histogram}_bins`] as Uint8Array | null);
  return values;
}

/** The parameters of `INSERT OR REPLACE INTO call_rollups VALUES (…)`, in column order. */
export function callRollupRow(project: string, key: CallRollupKey, values: CallRollupValues): unknown[] {
  return [
    project,
    key.cut,
    key.op,
    key.level,
    key.t,
    key.root ? 1 : 0,
    key.status,
    key.value,
    values.n,
    values.latencySumUs,
    values.ttftN,
    values.ttftSumUs,
    values.inputTokens,
    values.outputTokens,
    values.cachedTokens,
    values.reasoningTokens,
    values.totalTokens,
    values.costN,
    values.costNano,
    histogramBlob(values.latency),
    histogramBlob(values.ttft),
  ];
}

export function feedbackRollupValues(
  row: Record<string, unknown> | undefined,
): StoredRow<FeedbackRollupValues> {
  const values = row === undefined ? emptyFeedbackValues() : feedbackValuesOfRow(row);
  return {
    add(change) {
      addFeedbackValues(values, change);
      return isZeroFeedbackValues(values) ? undefined : values;
    },
  };
}

export function feedbackValuesOfRow(row: Record<string, unknown>): FeedbackRollupValues {
  const values = emptyFeedbackValues();
  values.n = Number(row.n);
  values.numericN = Number(row.numeric_n);
  values.sum = Number(row.sum);
  values.sumSquares = Number(row.sum_squares);
  const text = row.distribution as string | null;
  if (text !== null && text !== '') {
    values.distribution = new Map(Object.entries(JSON.parse(text) as Record<string, number>));
  }
  return values;
}

export function feedbackRollupRow(
  project: string,
  key: FeedbackRollupKey,
  values: FeedbackRollupValues,
): unknown[] {
  return [
    project,
    key.cut,
    key.op,
    key.level,
    key.t,
    key.root ? 1 : 0,
    key.name,
    key.value,
    values.n,
    values.numericN,
    values.sum,
    values.sumSquares,
    values.distribution.size === 0 ? null : JSON.stringify(Object.fromEntries(values.distribution)),
  ];
}
