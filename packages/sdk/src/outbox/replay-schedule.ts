import { backoffDelayMs, type BackoffOptions, HURRIED_PROBE_MS } from '../transport/index.js';

/**
 * When the keeper's replay rounds run: one at a time, chained; at most one
 * queued; a timer for the next try after a refused round (a growing backoff)
 * or, while a flush waits, sooner (see {@link hurryOn}). Timers are unref'd:
 * they never keep the process alive.
 */
export class ReplaySchedule {
  readonly #round: () => Promise<void>;
  readonly #backoff: BackoffOptions;
  /** The last round, started or queued. */
  #rounds: Promise<void>;
  #queued: boolean;
  #timer: NodeJS.Timeout | undefined;
  #refusedRounds = 0;
  #closed = false;
  /** Whether this round stopped because the server did not take a batch (rather than refusing it on purpose). */
  #serverFailed = false;
  /** The longest `Retry-After` the server asked for in this round. */
  #retryAfterMs = 0;

  /** `first`: the startup work; the first round runs after it, whatever its outcome. */
  constructor(first: Promise<unknown>, round: () => Promise<void>, backoff: BackoffOptions) {
    this.#round = round;
    this.#backoff = backoff;
    this.#queued = true;
    this.#rounds = first.then(
      () => this.#run(),
      () => this.#run(),
    );
  }

  /** Resolves when every round started or queued before this call has ended (whatever its outcome). */
  get settled(): Promise<void> {
    return this.#rounds;
  }

  /** Queues a round now (unless one is queued already); a pending timer is dropped. */
  queue(): void {
    if (this.#closed || this.#queued) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queued = true;
    this.#rounds = this.#rounds.then(() => this.#run());
  }

  /** A round starts: what the server says is counted afresh. */
  roundStarted(): void {
    this.#serverFailed = false;
    this.#retryAfterMs = 0;
  }

  /** The server did not take a batch (it failed, or is busy and asked to wait `retryAfterMs`). */
  serverFailed(retryAfterMs = 0): void {
    this.#serverFailed = true;
    this.#retryAfterMs = Math.max(this.#retryAfterMs, retryAfterMs);
  }

  /**
   * A flush still waits after a round: the next round at once when this one
   * made progress, else after {@link HURRIED_PROBE_MS} (or the server's
   * `Retry-After`, up to a minute) while the circuit is closed (its failures
   * open it), else when the circuit closes (the keeper queues a round then).
   */
  hurryOn(refused: boolean, sent: number, circuitClosed: boolean): void {
    if (this.#closed) return;
    if (refused && !this.#serverFailed) {
      // The server refused on purpose (credentials): no faster than without a flush.
      this.retryLater();
      return;
    }
    if (refused && !circuitClosed) return;
    if (!refused && sent > 0) {
      this.queue();
      return;
    }
    this.#probeAfter(Math.max(HURRIED_PROBE_MS, Math.min(this.#retryAfterMs, 60_000)));
  }

  /** A round ended without refusal: the backoff starts over. */
  succeeded(): void {
    this.#refusedRounds = 0;
  }

  /** After a round the server refused, another one after a growing backoff (at least 250 ms), unless a timer is set. */
  retryLater(): void {
    if (this.#closed || this.#timer !== undefined) return;
    this.#after(Math.max(backoffDelayMs(++this.#refusedRounds, this.#backoff), 250));
  }

  /** The next round in `delayMs`, replacing a timer already set. */
  #probeAfter(delayMs: number): void {
    clearTimeout(this.#timer);
    this.#after(delayMs);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #after(delayMs: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.queue();
    }, delayMs).unref();
  }

  #run(): Promise<void> {
    this.#queued = false;
    if (this.#closed) return Promise.resolve();
    return this.#round();
  }
}
