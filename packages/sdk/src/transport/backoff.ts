/** Base and cap of an exponential backoff, in milliseconds. */
export interface BackoffOptions {
  /** Upper bound of the first delay. */
  baseMs: number;
  /** No delay exceeds this. */
  maxMs: number;
}

/**
 * Exponential backoff with full jitter (AWS architecture blog, "Exponential
 * Backoff and Jitter"): a delay drawn uniformly from
 * `[0, min(maxMs, baseMs · 2^(attempt − 1)))`. Full jitter spreads the retries
 * of many clients that failed together, so a recovering server is not hit by
 * a synchronized wave.
 *
 * @param attempt - How many attempts have failed so far (1 after the first failure); values below 1 count as 1.
 * @param random - A source of numbers in [0, 1); injected by tests for determinism.
 * @returns A whole number of milliseconds in `[0, maxMs]`.
 */
export function backoffDelayMs(
  attempt: number,
  { baseMs, maxMs }: BackoffOptions,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  // 2 ** exponent overflows to Infinity for huge attempts; Math.min keeps the cap.
  const ceiling = Math.min(maxMs, baseMs * 2 ** exponent);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.min(maxMs, Math.floor(r * ceiling));
}
