/**
 * How a metric's window values are made comparable before the CUSUM:
 * - `rate` (an error rate): errors e of n calls per window, through
 *   Anscombe's arcsine 2·asin(√((e + 3/8)/(n + 3/4))), whose variance is
 *   ≈ 1/n whatever the rate: scaled by √n against the baseline's pooled
 *   rate, a window of 3 calls and one of 3,000 weigh what they should, and
 *   a rate of a few percent is not skewed as the plain proportion is;
 * - `count` (calls, errors): Anscombe's 2√(x + 3/8), which makes a Poisson
 *   count's variance ≈ 1;
 * - `positive` (latency, TTFT, tokens, cost): the logarithm, so a change is
 *   relative and a long tail does not dominate;
 * - `level` (a feedback mean): the value itself.
 * Then, except for rates, the mean and standard deviation of the baseline
 * windows within 5 robust σ (1.4826 × the median absolute deviation) of
 * their median: as efficient as the plain mean and SD on normal data (the
 * SD's own error is what raises false alarms most, see docs/monitoring.md),
 * and an outlier window does not move them.
 */
export type SeriesKind = 'rate' | 'count' | 'positive' | 'level';

/** One evaluation window: its value, and for rates its events and trials (errors, ended calls). */
export interface Observation {
  at: number;
  value: number | null;
  events?: number;
  trials?: number;
}

/** The baseline a window is compared with. */
export interface Baseline {
  kind: SeriesKind;
  /** Center in transformed units (the rate itself for `rate`). */
  center: number;
  /** Spread in transformed units (unused for `rate`). */
  scale: number;
  /** Windows it was estimated from. */
  windows: number;
}

/** Smallest spread assumed per kind (a constant baseline still has sampling noise). */
const MIN_SCALE: Record<Exclude<SeriesKind, 'rate'>, number> = { count: 1, positive: 0.01, level: 1e-6 };

/** A value in the units the baseline's center and scale are in. */
export function transform(kind: SeriesKind, value: number): number {
  switch (kind) {
    case 'count':
      return 2 * Math.sqrt(Math.max(0, value) + 3 / 8);
    case 'positive':
      return Math.log(Math.max(value, 1e-9));
    default:
      return value;
  }
}

/** Back from transformed units to the metric's own. */
export function untransform(kind: SeriesKind, y: number): number {
  switch (kind) {
    case 'count':
      return Math.max(0, (y / 2) ** 2 - 3 / 8);
    case 'positive':
      return Math.exp(y);
    default:
      return y;
  }
}

/** The baseline of `windows` (those with a value; for rates, with trials); `undefined` with fewer than `minWindows`. */
export function estimateBaseline(
  kind: SeriesKind,
  windows: readonly Observation[],
  minWindows: number,
): Baseline | undefined {
  if (kind === 'rate') {
    let events = 0;
    let trials = 0;
    let count = 0;
    for (const w of windows) {
      if (!w.trials) continue;
      events += w.events ?? 0;
      trials += w.trials;
      count++;
    }
    if (count < minWindows || trials === 0) return undefined;
    // A baseline with no event at all still allows some: half an event over its trials.
    return { kind, center: Math.max(events, 0.5) / trials, scale: 0, windows: count };
  }
  const ys: number[] = [];
  for (const w of windows) if (w.value !== null) ys.push(transform(kind, w.value));
  if (ys.length < minWindows) return undefined;
  const mid = median(ys);
  const robust = 1.4826 * median(ys.map((y) => Math.abs(y - mid)));
  const kept = robust === 0 ? ys : ys.filter((y) => Math.abs(y - mid) <= 5 * robust);
  let sum = 0;
  for (const y of kept) sum += y;
  const center = sum / kept.length;
  let squares = 0;
  for (const y of kept) squares += (y - center) ** 2;
  const sd = kept.length > 1 ? Math.sqrt(squares / (kept.length - 1)) : 0;
  const floor = kind === 'level' ? Math.max(MIN_SCALE.level, Math.abs(center) * 1e-3) : MIN_SCALE[kind];
  return { kind, center, scale: Math.max(sd, floor), windows: ys.length };
}

/** How many baseline standard deviations a window is from the baseline; `null` when it has no data. */
export function standardize(baseline: Baseline, window: Observation): number | null {
  if (baseline.kind === 'rate') {
    const trials = window.trials ?? 0;
    if (trials === 0) return null;
    const y = 2 * Math.asin(Math.sqrt(((window.events ?? 0) + 3 / 8) / (trials + 3 / 4)));
    return (y - 2 * Math.asin(Math.sqrt(baseline.center))) * Math.sqrt(trials);
  }
  if (window.value === null) return null;
  return (transform(baseline.kind, window.value) - baseline.center) / baseline.scale;
}

/** The baseline's level in the metric's units. */
export function baselineLevel(baseline: Baseline): number {
  return baseline.kind === 'rate' ? baseline.center : untransform(baseline.kind, baseline.center);
}

function median(values: readonly number[]): number {
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
