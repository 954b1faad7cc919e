import type { AlertWindow, MetricBucket, MetricMeasure } from '@weft/protocol';
import type { SeriesKind } from './change-detection/index.js';

/** Width of each alert window. */
export const WINDOW_MS: Record<AlertWindow, number> = {
  minute: 60_000,
  '5m': 300_000,
  '15m': 900_000,
  hour: 3_600_000,
  '6h': 21_600_000,
  day: 86_400_000,
};

/** The metrics bucket of the same width (UTC: windows are aligned on UTC). */
export const WINDOW_BUCKET: Record<AlertWindow, MetricBucket> = {
  minute: 'minute',
  '5m': '5m',
  '15m': '15m',
  hour: 'hour',
  '6h': '6h',
  day: 'day',
};

/** How change detection treats a metric's windows (see `SeriesKind`). */
export function seriesKindOf(metric: MetricMeasure): SeriesKind {
  if (typeof metric === 'object') return 'level';
  if (metric === 'errorRate') return 'rate';
  if (metric === 'count' || metric === 'errors') return 'count';
  return 'positive';
}

/** A metric as people read it: `latency.p95`, `feedback correctness (mean)`. */
export function metricLabel(metric: MetricMeasure): string {
  return typeof metric === 'string' ? metric : `feedback ${metric.feedback} (${metric.stat ?? 'mean'})`;
}

/** A metric's value as people read it: ms, %, $ or a plain number. */
export function formatMetric(metric: MetricMeasure, value: number): string {
  if (typeof metric === 'object') return round(value);
  if (metric === 'errorRate') return `${round(value * 100)}%`;
  if (metric === 'cost') return `$${round(value)}`;
  if (metric.startsWith('latency') || metric.startsWith('ttft')) return `${round(value)} ms`;
  return round(value);
}

function round(value: number): string {
  return Number(value.toPrecision(4)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}
