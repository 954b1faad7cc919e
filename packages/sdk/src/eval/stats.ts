/** Arithmetic mean; 0 for no values. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * Sample variance (divisor n − 1, Bessel's correction: the rows are a sample
 * of what the model will see); 0 for fewer than two values.
 */
export function sampleVariance(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  let sum = 0;
  for (const v of values) sum += (v - m) * (v - m);
  return sum / (values.length - 1);
}

/** Sample standard deviation, `sqrt(sampleVariance)`. */
export function sampleStddev(values: readonly number[]): number {
  return Math.sqrt(sampleVariance(values));
}

/**
 * The `p`-th quantile (0…1) by linear interpolation between closest ranks
 * (numpy's default, "type 7"): for [10, 20, 30, 40], p50 = 25, p95 = 38.5.
 * 0 for no values. Sorts a copy.
 */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] as number;
  return a + (h - lo) * (b - a);
}
