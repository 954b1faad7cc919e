/**
 * Relative accuracy of every percentile read from rollups: the estimate is
 * within ±1% of the exact value (the value of rank ⌊q·(n−1)⌋ among the
 * values, sorted), whatever the data and however rollups were merged.
 */
export const QUANTILE_RELATIVE_ERROR = 0.01;

/*
 * A DDSketch-style log histogram (Masson, Rim, Lee: "DDSketch: a fast and
 * fully-mergeable quantile sketch with relative-error guarantees", VLDB 2019).
 * A value x > 0 falls into bin i = ⌈log_γ x⌉ with γ = (1 + α)/(1 − α), so bin
 * i holds (γ^(i−1), γ^i]; reading bin i back as 2γ^i/(γ + 1) is within α of
 * every value in it. Bins are plain counts, so histograms add and subtract
 * exactly (a call whose end changes is taken out of one bin and put into
 * another), and a merge of any rollups equals the histogram of all their
 * values. That is why rollups keep bin counts (a sum state) and not
 * t-digests: a t-digest cannot take a value back out, and its error has no
 * stated bound. Values of at most MIN_VALUE (1 µs in milliseconds) count as 0.
 *
 *   α = 0.01: γ ≈ 1.0202, log γ ≈ 0.0200; latencies of 1 µs … 10⁹ ms use
 *   bins −349 … 1036, a few dozen of them for a typical op.
 */
const GAMMA = (1 + QUANTILE_RELATIVE_ERROR) / (1 - QUANTILE_RELATIVE_ERROR);
const LOG_GAMMA = Math.log(GAMMA);
const MIN_VALUE = 1e-3;
/** The bin of values ≤ {@link MIN_VALUE}, read back as 0. */
export const ZERO_BIN = -32_768;

/** Bin → count; counts may be negative in a delta (a value taken out). */
export type LogHistogram = Map<number, number>;

/** The bin a value ≥ 0 falls into. */
export function binOf(value: number): number {
  if (!(value > MIN_VALUE)) return ZERO_BIN;
  return Math.ceil(Math.log(value) / LOG_GAMMA);
}

/** The value a bin is read back as (within {@link QUANTILE_RELATIVE_ERROR} of each value in it). */
export function valueOfBin(bin: number): number {
  if (bin === ZERO_BIN) return 0;
  return (2 * GAMMA ** bin) / (GAMMA + 1);
}

/** Adds `count` of the bin into `into`; a bin whose count reaches 0 is removed. */
export function addToBin(into: LogHistogram, bin: number, count: number): void {
  const next = (into.get(bin) ?? 0) + count;
  if (next === 0) into.delete(bin);
  else into.set(bin, next);
}

/** Adds every bin of `from` times `sign` into `into`. */
export function addHistogram(into: LogHistogram, from: ReadonlyMap<number, number>, sign = 1): void {
  for (const [bin, count] of from) addToBin(into, bin, count * sign);
}

/**
 * The `q`-quantile (0 ≤ q ≤ 1) of the values counted in `histogram`: the
 * value of rank ⌊q·(n−1)⌋ (0-based) within ±{@link QUANTILE_RELATIVE_ERROR};
 * `null` when it holds no value.
 */
export function quantileOf(histogram: ReadonlyMap<number, number>, q: number): number | null {
  return quantilesOf(histogram, [q])[0] as number | null;
}

/** {@link quantileOf} for each of `qs`, in one walk of the sorted bins. */
export function quantilesOf(
  histogram: ReadonlyMap<number, number>,
  qs: readonly number[],
): (number | null)[] {
  let total = 0;
  for (const count of histogram.values()) total += count;
  if (total <= 0) return qs.map(() => null);
  const bins = [...histogram.keys()].sort((a, b) => a - b);
  const wanted = qs.map((q, i) => ({ i, rank: Math.floor(q * (total - 1)) })).sort((a, b) => a.rank - b.rank);
  const out: (number | null)[] = qs.map(() => valueOfBin(bins.at(-1) as number));
  let next = 0;
  let seen = 0;
  for (const bin of bins) {
    seen += histogram.get(bin) as number;
    while (next < wanted.length && seen > (wanted[next] as { rank: number }).rank) {
      out[(wanted[next] as { i: number }).i] = valueOfBin(bin);
      next++;
    }
    if (next === wanted.length) break;
  }
  return out;
}
