export { runMetricsQuery } from './run-metrics-query.js';
export { feedbackMeasureKey } from './series-fold.js';
export { autoBucket, bucketIndex, timeBuckets, type TimeBuckets } from './time-buckets.js';
export { MAX_RAW_CALLS } from './raw-rows.js';
