import { type BackoffOptions, backoffDelayMs } from './backoff.js';
import type { Timers } from './timers.js';

/** `closed`: send normally. `open`: do not send; a probe is scheduled. `half-open`: the probe is out. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** Options of {@link CircuitBreaker}. */
export interface CircuitBreakerOptions {
  /** Consecutive failed requests that open the circuit. */
  failureThreshold: number;
  /** Spacing of probes while open; it grows with each failed probe. */
  backoff: BackoffOptions;
  /** Asks the server whether it answers again; resolves true when it does. Must not throw. */
  probe: () => Promise<boolean>;
  timers: Timers;
  random: () => number;
  /** Called on every state change, after the change. */
  onChange?: ((state: CircuitState, previous: CircuitState) => void) | undefined;
}

/**
 * Stops the SDK from hammering a server that keeps failing.
 *
 * ```
 *            failureThreshold consecutive failures
 *   closed ─────────────────────────────────────────► open
 *     ▲                                               │ after a backoff delay (grows per failed probe)
 *     │  probe answered, or a request succeeded       ▼
 *     └──────────────────────────────────────────── half-open ──probe failed──► open
 * ```
 *
 * Exactly one probe is out at a time. A probe that succeeds closes the circuit
 * but keeps the probe backoff level; only a real request that succeeds resets
 * it, so a server whose health check answers while its ingest fails is probed
 * less and less often instead of in a tight open/close cycle.
 */
export class CircuitBreaker {
  #options: CircuitBreakerOptions;
  #state: CircuitState = 'closed';
  #failures = 0;
  #probeLevel = 0;
  #timer: unknown;
  #closedWaiters: (() => void)[] = [];
  #disposed = false;

  constructor(options: CircuitBreakerOptions) {
    this.#options = options;
  }

  get state(): CircuitState {
    return this.#state;
  }

  /** Failed requests since the last success. */
  get consecutiveFailures(): number {
    return this.#failures;
  }

  /** A request got an answer the server meant (any status that is not retryable). */
  recordSuccess(): void {
    this.#failures = 0;
    this.#probeLevel = 0;
    if (this.#state !== 'closed') this.#close();
  }

  /** A request failed in a way worth retrying (network error, timeout, 408, 429, 5xx). */
  recordFailure(): void {
    this.#failures += 1;
    if (this.#state === 'closed' && this.#failures >= this.#options.failureThreshold) this.#open();
  }

  /** Resolves when the circuit is (or becomes) closed. */
  whenClosed(): Promise<void> {
    if (this.#state === 'closed') return Promise.resolve();
    return new Promise((resolve) => this.#closedWaiters.push(resolve));
  }

  /** Cancels the probe timer; the breaker stays in its state and probes no more. */
  dispose(): void {
    this.#disposed = true;
    if (this.#timer !== undefined) this.#options.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #open(): void {
    const previous = this.#state;
    this.#state = 'open';
    this.#probeLevel += 1;
    const { backoff, random, timers } = this.#options;
    // Full jitter may draw 0; a probe still waits at least baseMs so a dead server is not polled in a loop.
    const delayMs = Math.max(backoff.baseMs, backoffDelayMs(this.#probeLevel, backoff, random));
    if (!this.#disposed) {
      this.#timer = timers.setTimeout(() => {
        this.#timer = undefined;
        this.#probe();
      }, delayMs);
    }
    this.#options.onChange?.('open', previous);
  }

  #probe(): void {
    if (this.#state !== 'open' || this.#disposed) return;
    this.#state = 'half-open';
    this.#options.onChange?.('half-open', 'open');
    this.#options.probe().then(
      (answered) => this.#settleProbe(answered),
      () => this.#settleProbe(false),
    );
  }

  #settleProbe(answered: boolean): void {
    // A real request may have closed the circuit while the probe was out.
    if (this.#state !== 'half-open') return;
    if (answered) this.#close();
    else this.#open();
  }

  #close(): void {
    const previous = this.#state;
    this.#state = 'closed';
    this.#failures = 0;
    if (this.#timer !== undefined) this.#options.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    const waiters = this.#closedWaiters;
    this.#closedWaiters = [];
    for (const resolve of waiters) resolve();
    this.#options.onChange?.('closed', previous);
  }
}
