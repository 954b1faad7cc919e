import type { MetricsQueryParsed, MetricsQueryResponse } from '@weft/protocol';
import {
  type CallRollupRow,
  type FeedbackRollupRow,
  QUANTILE_RELATIVE_ERROR,
  type Storage,
} from '../storage/index.js';
import { measureReads } from './measure-reads.js';
import { planMetrics, type RollupPlan } from './metric-plan.js';
import { rawRows } from './raw-rows.js';
import { foldSeries } from './series-fold.js';
import { timeBuckets } from './time-buckets.js';

const MINUTE = 60_000;

/**
 * Answers a metrics query: from rollups when they keep what the filter and
 * split need (see `planMetrics`), else from the matching raw calls (capped).
 * `from` and `to` are taken down to the whole minute.
 */
export async function runMetricsQuery(
  storage: Storage,
  input: MetricsQueryParsed,
): Promise<MetricsQueryResponse> {
  const from = Math.floor(input.from / MINUTE) * MINUTE;
  const to = Math.max(from + MINUTE, Math.floor(input.to / MINUTE) * MINUTE);
  const query = { ...input, from, to };
  const buckets = timeBuckets(from, to, query.bucket, query.timeZone);
  const plan = planMetrics(query, buckets);
  const filter = query.filter ?? {};
  const names =
    filter.opName === undefined ? undefined : Array.isArray(filter.opName) ? filter.opName : [filter.opName];
  const rows =
    plan.source === 'rollup'
      ? await rollupRows(storage, query, plan)
      : await rawRows(storage, query, { from, to }, plan.reason);
  const { series, groupsOmitted } = foldSeries(query, rows.calls, rows.feedback, {
    starts: buckets.starts,
    statuses: plan.source === 'rollup' ? plan.statuses : undefined,
    // Rollups split by op hold every op: keep the filtered ones.
    groups: query.groupBy === 'op' && names !== undefined ? new Set(names) : undefined,
  });
  return {
    buckets: buckets.starts,
    bucket: buckets.bucket,
    to,
    timeZone: query.timeZone,
    source: plan.source,
    quantileRelativeError: QUANTILE_RELATIVE_ERROR,
    series,
    groupsOmitted,
  };
}

async function rollupRows(
  storage: Storage,
  query: MetricsQueryParsed,
  plan: RollupPlan,
): Promise<{ calls: CallRollupRow[]; feedback: FeedbackRollupRow[] }> {
  const callMeasures = query.measures.filter((m) => typeof m === 'string');
  const names = [...new Set(query.measures.flatMap((m) => (typeof m === 'object' ? [m.feedback] : [])))];
  const { sums, histograms } = measureReads(callMeasures);
  const calls: CallRollupRow[] = [];
  const feedback: FeedbackRollupRow[] = [];
  const base = {
    project: query.project,
    cut: plan.cut,
    value: plan.value,
    ops: plan.ops,
    byValue: plan.byValue,
    root: plan.root,
  };
  // Every read starts in this turn, so a storage can send those that differ only in level as one statement.
  await Promise.all(
    plan.reads.flatMap(({ level, ranges }) => [
      callMeasures.length > 0 &&
        storage.monitoring
          .readCallRollups({ ...base, level, ranges, sums, histograms })
          .then((rows) => calls.push(...rows)),
      names.length > 0 &&
        storage.monitoring
          .readFeedbackRollups({ ...base, level, ranges, names })
          .then((rows) => feedback.push(...rows)),
    ]),
  );
  return { calls, feedback };
}
