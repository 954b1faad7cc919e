import { type Baseline, estimateBaseline, type Observation, type SeriesKind } from './baseline.js';
import {
  type ChangeAlarm,
  type DetectorConfig,
  detectChange,
  freshDetector,
  runStart,
} from './change-detector.js';

/** How a change alert watches a series: what `evaluateChange` and the simulations share. */
export interface WatchOptions {
  kind: SeriesKind;
  config: DetectorConfig;
  /** Windows of baseline before the current run. */
  baselineWindows: number;
  /** Fewest windows with data before the detector starts. */
  minBaselineWindows: number;
  /** The baseline is estimated again every this many windows (the evaluator: once an hour). */
  refreshWindows: number;
}

/**
 * Runs a change detector over a whole series as the alert evaluator does
 * window by window: each window is compared with the `baselineWindows`
 * before the current CUSUM run (the run's own windows would hide the change
 * they measure), and after an alarm the detector restarts. Returns the
 * alarms. For simulations and tests; the evaluator stores the detector's
 * state between evaluations instead.
 */
export function watchSeries(series: readonly Observation[], options: WatchOptions): ChangeAlarm[] {
  const alarms: ChangeAlarm[] = [];
  let state = freshDetector();
  let baseline: Baseline | undefined;
  let estimatedAt = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < series.length; i++) {
    if (baseline === undefined || i - estimatedAt >= options.refreshWindows) {
      const start = runStart(state);
      let end = i;
      if (start !== null) while (end > 0 && (series[end - 1] as Observation).at >= start) end--;
      baseline = estimateBaseline(
        options.kind,
        series.slice(Math.max(0, end - options.baselineWindows), end),
        options.minBaselineWindows,
      );
      estimatedAt = i;
    }
    if (baseline === undefined) continue;
    const result = detectChange(state, series[i] as Observation, baseline, options.config);
    state = result.state;
    if (result.alarm !== undefined) alarms.push(result.alarm);
  }
  return alarms;
}
