/** Seconds a completion counts in the rate: long enough to smooth single slow batches, short enough to follow a storage that slows down. */
const WINDOW_MS = 10_000;
/** Bounds of a `Retry-After`, in seconds: HTTP's unit at least, and never so long a client gives up on a server that recovers. */
const MIN_RETRY_S = 1;
const MAX_RETRY_S = 30;

/**
 * How fast the server finishes admitted requests, measured, and from it how
 * long a refused client should wait: the time the server needs to work off
 * what is in progress plus what it refused in the last second (clients that
 * will come back), at the rate it has been finishing requests. A server whose
 * storage takes 2 s a batch with 8 in progress asks for 16 s, not 1 s, so its
 * clients stop asking 16 times for nothing.
 */
export class DrainRate {
  readonly #now: () => number;
  readonly #since: number;
  /** Completion times within the window, oldest first. */
  readonly #done: number[] = [];
  /** Refusal times within the last second, oldest first. */
  readonly #refused: number[] = [];

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#since = now();
  }

  /** An admitted request finished (its storage work done, its answer written). */
  completed(): void {
    const now = this.#now();
    this.#done.push(now);
    dropBefore(this.#done, now - WINDOW_MS);
  }

  /** A request was refused. */
  refused(): void {
    const now = this.#now();
    this.#refused.push(now);
    dropBefore(this.#refused, now - 1_000);
  }

  /**
   * Seconds a client refused now should wait, with `inProgress` requests
   * admitted. 1 s until a completion has been seen.
   */
  retryAfterSeconds(inProgress: number): number {
    const now = this.#now();
    dropBefore(this.#done, now - WINDOW_MS);
    dropBefore(this.#refused, now - 1_000);
    if (this.#done.length === 0) return MIN_RETRY_S;
    // Over the window, or since the start when the server is younger than that.
    const spanMs = Math.max(1_000, Math.min(WINDOW_MS, now - this.#since));
    const perSecond = (this.#done.length * 1_000) / spanMs;
    const waiting = inProgress + this.#refused.length;
    return Math.min(MAX_RETRY_S, Math.max(MIN_RETRY_S, Math.ceil(waiting / perSecond)));
  }
}

function dropBefore(times: number[], limit: number): void {
  let stale = 0;
  while (stale < times.length && (times[stale] as number) < limit) stale++;
  if (stale > 0) times.splice(0, stale);
}
