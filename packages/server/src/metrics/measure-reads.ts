import type { CallMeasure } from '@weft/protocol';
import type { CallSum, RollupHistogram } from '../storage/index.js';

/**
 * What each call measure reads of the rollups: sums and histograms
 * (series-fold.ts computes the measure from them). `n` is read by every
 * query besides: groups are ranked by calls counted.
 */
const MEASURE_READS: Record<CallMeasure, { sums: readonly CallSum[]; histogram?: RollupHistogram }> = {
  count: { sums: [] },
  errors: { sums: [] },
  errorRate: { sums: [] },
  'latency.mean': { sums: ['latencySumUs'] },
  'latency.p50': { sums: [], histogram: 'latency' },
  'latency.p95': { sums: [], histogram: 'latency' },
  'latency.p99': { sums: [], histogram: 'latency' },
  'ttft.mean': { sums: ['ttftN', 'ttftSumUs'] },
  'ttft.p50': { sums: [], histogram: 'ttft' },
  'ttft.p95': { sums: [], histogram: 'ttft' },
  'ttft.p99': { sums: [], histogram: 'ttft' },
  'tokens.input': { sums: ['inputTokens'] },
  'tokens.output': { sums: ['outputTokens'] },
  'tokens.cached': { sums: ['cachedTokens'] },
  'tokens.reasoning': { sums: ['reasoningTokens'] },
  'tokens.total': { sums: ['totalTokens'] },
  cost: { sums: ['costN', 'costNano'] },
};

/**
 * The sums and histograms `measures` need: a rollup read of those alone
 * (each column read costs time per row; a dashboard panel needs one or two
 * of the eleven sums).
 */
export function measureReads(measures: readonly CallMeasure[]): {
  sums: CallSum[];
  histograms: RollupHistogram[];
} {
  const sums = new Set<CallSum>(['n']);
  const histograms = new Set<RollupHistogram>();
  for (const measure of measures) {
    const read = MEASURE_READS[measure];
    for (const sum of read.sums) sums.add(sum);
    if (read.histogram !== undefined) histograms.add(read.histogram);
  }
  return { sums: [...sums], histograms: [...histograms] };
}
