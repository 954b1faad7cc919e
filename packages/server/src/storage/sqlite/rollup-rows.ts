import {
  addCallValues,
  addFeedbackValues,
  type CallRollupKey,
  CALL_SUMS,
  type CallRollupValues,
  type CallSum,
  emptyCallValues,
  emptyFeedbackValues,
  type FeedbackRollupKey,
  type FeedbackRollupValues,
  isZeroCallValues,
  isZeroFeedbackValues,
  type RollupHistogram,
} from '../rollup/index.js';
import { histogramBlob, histogramOfBlob } from './histogram-blob.js';

/** Every sum and histogram of a row. */
const WHOLE_ROW = { sums: CALL_SUMS, histograms: ['latency', 'ttft'] } as const;

/** A stored rollup row's values, and what adding a change to them gives (`undefined`: nothing left, delete the row). */
interface StoredRow<V> {
  add(change: V): V | undefined;
}

/** Reads a `call_rollups` row (absent: zeros). */
export function callRollupValues(row: Record<string, unknown> | undefined): StoredRow<CallRollupValues> {
  const values = row === undefined ? emptyCallValues() : callValuesOfRow(row, WHOLE_ROW);
  return {
    add(change) {
      addCallValues(values, change);
      return isZeroCallValues(values) ? undefined : values;
    },
  };
}

/** The `call_rollups` column of each sum. */
export const SUM_COLUMNS: Readonly<Record<CallSum, string>> = {
  n: 'n',
  latencySumUs: 'latency_sum_us',
  ttftN: 'ttft_n',
  ttftSumUs: 'ttft_sum_us',
  inputTokens: 'input_tokens',
  outputTokens: 'output_tokens',
  cachedTokens: 'cached_tokens',
  reasoningTokens: 'reasoning_tokens',
  totalTokens: 'total_tokens',
  costN: 'cost_n',
  costNano: 'cost_nano',
};

/**
 * The `sums` and `histograms` of a `call_rollups` row (or of a SUM over
 * rows, with the same column names); the others are left 0 and empty.
 */
export function callValuesOfRow(
  row: Record<string, unknown>,
  { sums, histograms }: { sums: readonly CallSum[]; histograms: readonly RollupHistogram[] },
): CallRollupValues {
  const values = emptyCallValues();
  for (const sum of sums) values[sum] = Number(row[SUM_COLUMNS[sum]]);
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
