import { Z_975 } from '@weft/protocol';
import { type Baseline, baselineLevel, type Observation, standardize, untransform } from './baseline.js';

/** One side's CUSUM and what it has summed since it last left 0 (its run). */
export interface CusumSide {
  s: number;
  /** Start of the first window of the run (`null`: s is 0). */
  since: number | null;
  /** Windows in the run, the sum of their transformed values, and for rates their events and trials. */
  windows: number;
  sumY: number;
  events: number;
  trials: number;
}

/** What a change detector keeps between evaluations (stored with the alert's state). */
export interface DetectorState {
  up: CusumSide;
  down: CusumSide;
}

export interface DetectorConfig {
  /** Reference value, in baseline standard deviations. */
  k: number;
  /** Decision threshold (`cusumThreshold`). */
  h: number;
  direction: 'up' | 'down' | 'both';
}

/** A change found: which way, since when, from what level to what, with a 95% interval of the new level. */
export interface ChangeAlarm {
  direction: 'up' | 'down';
  /** Start of the first window of the run that crossed the threshold: the change point estimate. */
  since: number;
  /** Start of the window that crossed it. */
  at: number;
  windows: number;
  baseline: number;
  level: number;
  low: number;
  high: number;
}

export function freshDetector(): DetectorState {
  const side = (): CusumSide => ({ s: 0, since: null, windows: 0, sumY: 0, events: 0, trials: 0 });
  return { up: side(), down: side() };
}

/** When the current run (of either side watched) began: its windows are kept out of the baseline. */
export function runStart(state: DetectorState): number | null {
  const starts = [state.up.since, state.down.since].filter((s): s is number => s !== null);
  return starts.length === 0 ? null : Math.min(...starts);
}

/**
 * Feeds one window to a two-sided CUSUM (Page 1954) on standardized values
 * z: S⁺ = max(0, S⁺ + z − k), S⁻ = max(0, S⁻ − z − k); an alarm when a
 * watched side passes h. The run's windows (since S last left 0) estimate
 * the change point and the new level. A window without data changes
 * nothing. After an alarm the detector starts afresh.
 */
export function detectChange(
  state: DetectorState,
  window: Observation,
  baseline: Baseline,
  config: DetectorConfig,
): { state: DetectorState; alarm: ChangeAlarm | undefined } {
  const z = standardize(baseline, window);
  if (z === null) return { state, alarm: undefined };
  const y = baseline.kind === 'rate' ? 0 : z * baseline.scale + baseline.center;
  const next: DetectorState = {
    up: advance(state.up, z - config.k, y, window),
    down: advance(state.down, -z - config.k, y, window),
  };
  for (const direction of ['up', 'down'] as const) {
    if (config.direction !== 'both' && config.direction !== direction) continue;
    const side = next[direction];
    if (side.s > config.h)
      return { state: freshDetector(), alarm: alarmOf(direction, side, window.at, baseline) };
  }
  return { state: next, alarm: undefined };
}

function advance(side: CusumSide, step: number, y: number, window: Observation): CusumSide {
  const s = Math.max(0, side.s + step);
  if (s === 0) return { s: 0, since: null, windows: 0, sumY: 0, events: 0, trials: 0 };
  const fresh = side.since === null;
  return {
    s,
    since: fresh ? window.at : side.since,
    windows: (fresh ? 0 : side.windows) + 1,
    sumY: (fresh ? 0 : side.sumY) + y,
    events: (fresh ? 0 : side.events) + (window.events ?? 0),
    trials: (fresh ? 0 : side.trials) + (window.trials ?? 0),
  };
}

function alarmOf(direction: 'up' | 'down', side: CusumSide, at: number, baseline: Baseline): ChangeAlarm {
  const m = side.windows;
  let level: number;
  let low: number;
  let high: number;
  if (baseline.kind === 'rate') {
    // Wilson's interval for the run's rate.
    const n = side.trials;
    const p = n === 0 ? 0 : side.events / n;
    const z2 = Z_975 * Z_975;
    const center = (p + z2 / (2 * n)) / (1 + z2 / n);
    const half = (Z_975 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
    [level, low, high] = [p, center - half, center + half];
  } else {
    const mean = side.sumY / m;
    const half = (Z_975 * baseline.scale) / Math.sqrt(m);
    [level, low, high] = [mean, mean - half, mean + half].map((y) => untransform(baseline.kind, y)) as [
      number,
      number,
      number,
    ];
  }
  return {
    direction,
    since: side.since as number,
    at,
    windows: m,
    baseline: baselineLevel(baseline),
    level,
    low,
    high,
  };
}
