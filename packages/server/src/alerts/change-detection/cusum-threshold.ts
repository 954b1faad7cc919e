/** Windows in 30 days, the month false-alarm rates are stated per. */
export function windowsPerMonth(windowMs: number): number {
  return (30 * 86_400_000) / windowMs;
}

/**
 * Siegmund's approximation of the in-control average run length of a
 * one-sided CUSUM on standardized values (mean 0, sd 1) with reference k
 * and decision threshold h:
 *
 *   ARL₀ ≈ (e^{2kb} − 2kb − 1) / (2k²),  b = h + 1.166
 *
 * (Siegmund 1985; within a few percent of the exact Markov-chain value for
 * the k and h used here, e.g. k = 0.5, h = 5 gives 938 against 930).
 */
export function siegmundArl(h: number, k: number): number {
  const b = h + 1.166;
  return (Math.exp(2 * k * b) - 2 * k * b - 1) / (2 * k * k);
}

/** Options of {@link cusumThreshold}. */
export interface CusumThresholdOptions {
  /** False alarms per 30 days the detector may raise on a series that does not change. */
  falseAlarmsPerMonth: number;
  /** Evaluation windows per 30 days. */
  windowsPerMonth: number;
  /** 2 for a detector of rises and falls (two CUSUMs, each raising half the alarms), 1 for one direction. */
  sides: 1 | 2;
  /** Reference value k, in standard deviations: half the shift to detect fastest. */
  k: number;
}

/**
 * The decision threshold h giving an average run length between false
 * alarms of `windowsPerMonth / falseAlarmsPerMonth` windows. With two sides
 * each CUSUM needs twice that run length (1/ARL = 1/ARL⁺ + 1/ARL⁻). Solved
 * by bisection: ARL grows monotonically with h.
 */
export function cusumThreshold({
  falseAlarmsPerMonth,
  windowsPerMonth,
  sides,
  k,
}: CusumThresholdOptions): number {
  const target = (windowsPerMonth / falseAlarmsPerMonth) * sides;
  let low = 0;
  let high = 50;
  for (let i = 0; i < 100; i++) {
    const mid = (low + high) / 2;
    if (siegmundArl(mid, k) < target) low = mid;
    else high = mid;
  }
  return high;
}
