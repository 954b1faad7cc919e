import { z } from 'zod';
import { projectName } from './names.js';
import { timestampMs } from './common.js';
import { callQuery } from './query.js';

/**
 * The filters of a call query (`callQuery` without project, sort and
 * paging): what metrics, evaluator rules and alerts select calls by. Strict,
 * like the calls query: a misspelled filter is refused, never ignored.
 */
export const callFilter = callQuery.omit({
  project: true,
  sort: true,
  limit: true,
  cursor: true,
  values: true,
});
export type CallFilter = z.input<typeof callFilter>;
export type CallFilterParsed = z.output<typeof callFilter>;

/**
 * A measure of calls, per time bucket:
 * - `count`: calls started in the bucket (running ones included); `errors`:
 *   those that ended in an error; `errorRate`: errors over ended calls;
 * - `latency.*` and `ttft.*` (time to first token, `summary.timeToFirstTokenMs`,
 *   streamed calls only): mean and percentiles over ended calls, in ms;
 * - `tokens.*`: sums of `summary.usage` (a call's usage includes its
 *   descendants', so sum over root calls, `filter: { parentId: null }`, to
 *   count each token once); `cost`: US dollars, likewise.
 */
export const callMeasure = z.enum([
  'count',
  'errors',
  'errorRate',
  'latency.mean',
  'latency.p50',
  'latency.p95',
  'latency.p99',
  'ttft.mean',
  'ttft.p50',
  'ttft.p95',
  'ttft.p99',
  'tokens.input',
  'tokens.output',
  'tokens.cached',
  'tokens.reasoning',
  'tokens.total',
  'cost',
]);
export type CallMeasure = z.infer<typeof callMeasure>;

/**
 * A measure of feedback (and online evaluator scores) of one name, on the
 * calls started in the bucket: `mean` (numbers; booleans count as 1/0, so
 * the mean is a pass rate) with its 95% interval, or `distribution` (counts
 * per value: `true`/`false`, each label, each number).
 */
export const feedbackMeasure = z.strictObject({
  feedback: z.string().min(1).max(256),
  stat: z.enum(['mean', 'distribution']).default('mean'),
});
export type FeedbackMeasure = z.input<typeof feedbackMeasure>;

export const metricMeasure = z.union([callMeasure, feedbackMeasure]);
export type MetricMeasure = z.input<typeof metricMeasure>;

/**
 * What series are split by: the plain op name, the model (a call counts
 * once per model of its `summary.usage`, and token and cost measures take
 * that model's share), the `version` attribute, the `user.id` attribute, each
 * element of the `tags` attribute, or the session.
 */
export const metricGroupBy = z.enum(['op', 'model', 'version', 'user', 'tag', 'session']);
export type MetricGroupBy = z.infer<typeof metricGroupBy>;

/**
 * Width of a time bucket, in the query's time zone (`day` starts at local
 * midnight; a day across a DST change is 23 or 25 hours). `auto` picks the
 * finest that gives at most {@link AUTO_BUCKET_POINTS} buckets; `total` is
 * one bucket over the whole range.
 */
export const metricBucket = z.enum([
  'auto',
  'minute',
  '5m',
  '15m',
  'hour',
  '6h',
  'day',
  'week',
  'month',
  'total',
]);
export type MetricBucket = z.infer<typeof metricBucket>;

/** Most buckets `auto` picks. */
export const AUTO_BUCKET_POINTS = 200;
/** Most buckets a query may ask for; finer buckets are refused with a 400 naming `bucket`. */
export const MAX_METRIC_POINTS = 1_500;
/** Longest range a query may cover: 400 days. */
export const MAX_METRIC_RANGE_MS = 400 * 24 * 3_600_000;

/** An IANA time zone name this runtime knows (`Europe/Paris`, `UTC`). */
export const timeZoneName = z
  .string()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone name such as UTC or Europe/Paris');

/**
 * Body of `routes.metricsQuery`: measures of one project's calls over
 * `[from, to)`, bucketed in `timeZone`, optionally split by `groupBy`
 * (the `maxGroups` largest groups by call count; the response says how many
 * were left out).
 */
export const metricsQuery = z
  .strictObject({
    project: projectName,
    from: timestampMs,
    to: timestampMs,
    bucket: metricBucket.default('auto'),
    timeZone: timeZoneName.default('UTC'),
    measures: z.array(metricMeasure).min(1).max(20),
    groupBy: metricGroupBy.optional(),
    filter: callFilter.optional(),
    maxGroups: z.number().int().min(1).max(50).default(10),
  })
  .superRefine((query, ctx) => {
    if (query.to <= query.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after `from`' });
    else if (query.to - query.from > MAX_METRIC_RANGE_MS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'the range must be at most 400 days' });
  });
export type MetricsQuery = z.input<typeof metricsQuery>;
export type MetricsQueryParsed = z.output<typeof metricsQuery>;

/**
 * One measure of one group, a value per bucket (`null`: nothing to measure
 * there, e.g. no ended call for a latency). Feedback means carry their 95%
 * interval (`low`, `high`) and sample size `n`; distributions carry counts
 * per value instead of `values`.
 */
export const metricSeries = z.object({
  /** The measure: a `callMeasure`, or `feedback:<name>:<stat>`. */
  measure: z.string(),
  /** The group's value (op name, model, …), `null` without `groupBy`. */
  group: z.string().nullable(),
  values: z.array(z.number().nullable()),
  low: z.array(z.number().nullable()).optional(),
  high: z.array(z.number().nullable()).optional(),
  n: z.array(z.number()).optional(),
  distribution: z.array(z.record(z.string(), z.number())).optional(),
});
export type MetricSeries = z.infer<typeof metricSeries>;

export const metricsQueryResponse = z.object({
  /** Start of each bucket (epoch ms); bucket i ends where i + 1 starts, the last at `to`. */
  buckets: z.array(timestampMs),
  /** The bucket width used (what `auto` resolved to). */
  bucket: metricBucket,
  to: timestampMs,
  timeZone: z.string(),
  /**
   * `rollup`: read from the rollups kept at ingest; `raw`: the filter needs
   * something rollups do not keep, so matching calls were read one by one
   * (refused past a cap, see docs/monitoring.md).
   */
  source: z.enum(['rollup', 'raw']),
  /** Percentiles are within this relative error of the exact value (0.01: ±1%). */
  quantileRelativeError: z.number(),
  series: z.array(metricSeries),
  /** Groups beyond `maxGroups` left out. */
  groupsOmitted: z.number().int().nonnegative(),
});
export type MetricsQueryResponse = z.infer<typeof metricsQueryResponse>;
