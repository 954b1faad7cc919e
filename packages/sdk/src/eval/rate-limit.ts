import { debuglog } from 'node:util';
import { z } from 'zod';
import { InvalidEvaluationOptionsError, RateLimitExhaustedError } from './errors/index.js';
import { rateLimitOf } from './rate-limit-of.js';
import { sleep } from './sleep.js';

const log = debuglog('weft');

export const rateLimitOptionsSchema = z.strictObject({
  maxAttempts: z.number().int().min(1).max(100).default(8),
  recoverAfterSuccesses: z.number().int().min(1).default(10),
  baseDelayMs: z.number().int().min(0).default(1_000),
  maxDelayMs: z.number().int().min(0).default(60_000),
});

/** How the runner reacts to rate limits. */
export interface RateLimitOptions {
  /**
   * Attempts per row (the first included) while the model keeps answering
   * "rate limited"; then the row fails with `WEFT_RATE_LIMITED`.
   * @default 8
   */
  maxAttempts?: number;
  /** Successful rows needed to raise concurrency by one after a decrease. @default 10 */
  recoverAfterSuccesses?: number;
  /** First backoff without a `retryAfter`; doubles per attempt, with jitter. @default 1_000 */
  baseDelayMs?: number;
  /** Cap of a backoff without a `retryAfter`. @default 60_000 */
  maxDelayMs?: number;
}

/** Counters of what rate limiting did in a run. */
export interface RateLimitStats {
  /** Attempts that were rate limited (each retried or, at the budget, failed). */
  rateLimited: number;
  decreases: number;
  increases: number;
  /** Current concurrency. */
  concurrency: number;
}

/**
 * Adaptive concurrency under rate limits (AIMD). A rate-limited attempt
 * halves the concurrency and holds every new attempt until the backoff has
 * passed (the server's `retryAfter` when it gave one, else exponential with
 * jitter); each `recoverAfterSuccesses` successes add one slot back, up to the
 * configured maximum.
 *
 * A burst of rejections from the same moment halves once, not once per
 * rejection: each attempt remembers the epoch it started in, and only an
 * attempt started since the last decrease can decrease again. Otherwise 16
 * in-flight requests hitting one 429 wall would collapse 16 → 1.
 */
export class AdaptiveConcurrency {
  readonly #max: number;
  readonly #options: z.output<typeof rateLimitOptionsSchema>;
  readonly #onChange: (concurrency: number) => void;
  readonly #random: () => number;
  #concurrency: number;
  #epoch = 0;
  #successes = 0;
  /** No attempt starts before this time (ms since the epoch). */
  #holdUntil = 0;
  #stats = { rateLimited: 0, decreases: 0, increases: 0 };

  constructor(
    maxConcurrency: number,
    options: RateLimitOptions = {},
    hooks: { onChange?: (concurrency: number) => void; random?: () => number } = {},
  ) {
    this.#options = InvalidEvaluationOptionsError.parse('rateLimit', rateLimitOptionsSchema, options);
    this.#max = maxConcurrency;
    this.#concurrency = maxConcurrency;
    this.#onChange = hooks.onChange ?? (() => {});
    this.#random = hooks.random ?? Math.random;
  }

  get concurrency(): number {
    return this.#concurrency;
  }

  get stats(): RateLimitStats {
    return { ...this.#stats, concurrency: this.#concurrency };
  }

  /**
   * Runs `attempt` until it succeeds, throws something that is not a rate
   * limit (rethrown as is), or spends the budget ({@link RateLimitExhaustedError}).
   * Rejects with `signal.reason` when aborted while waiting.
   */
  async run<T>(attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let n = 1; ; n++) {
      await this.#waitForHold(signal);
      const epoch = this.#epoch;
      try {
        const result = await attempt();
        this.#onSuccess();
        return result;
      } catch (error) {
        const info = rateLimitOf(error);
        if (info === undefined) throw error;
        this.#stats.rateLimited++;
        if (n >= this.#options.maxAttempts) throw new RateLimitExhaustedError(n, error);
        this.#onRateLimited(epoch, n, info.retryAfterMs);
      }
    }
  }

  async #waitForHold(signal: AbortSignal | undefined): Promise<void> {
    // Loop: the hold may be extended by another rejection while we sleep.
    for (let wait = this.#holdUntil - Date.now(); wait > 0; wait = this.#holdUntil - Date.now()) {
      await sleep(wait, signal);
    }
    signal?.throwIfAborted();
  }

  #onSuccess(): void {
    this.#successes++;
    if (this.#concurrency < this.#max && this.#successes >= this.#options.recoverAfterSuccesses) {
      this.#successes = 0;
      this.#set(this.#concurrency + 1);
      this.#stats.increases++;
    }
  }

  #onRateLimited(epoch: number, attempt: number, retryAfterMs: number | undefined): void {
    if (epoch === this.#epoch) {
      this.#epoch++;
      this.#successes = 0;
      const next = Math.max(1, Math.floor(this.#concurrency / 2));
      if (next !== this.#concurrency) {
        this.#set(next);
        this.#stats.decreases++;
      }
    }
    const { baseDelayMs, maxDelayMs } = this.#options;
    // Equal jitter: half fixed, half random, so a crowd of retries spreads out.
    const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    const delay = retryAfterMs ?? backoff / 2 + (this.#random() * backoff) / 2;
    this.#holdUntil = Math.max(this.#holdUntil, Date.now() + delay);
    log(
      'rate limited (attempt %d): concurrency %d, holding %d ms',
      attempt,
      this.#concurrency,
      Math.round(delay),
    );
  }

  #set(concurrency: number): void {
    this.#concurrency = concurrency;
    this.#onChange(concurrency);
  }
}
