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
  /** Called on every state change, after the change (more listeners: {@link CircuitBreaker.subscribe}). */
  onChange?: CircuitListener | undefined;
  /**
   * Longest wait between probes while someone {@link CircuitBreaker.hurry hurries}
   * the breaker (a flush waiting for the server).
   * @default 250
   */
  hurriedProbeMs?: number | undefined;
}

/**
 * The view of the client's one circuit breaker that the senders share: the
 * batcher, the uploads beside it and the outbox replay record what their
 * requests saw, and read whether the server is known to be down.
 */
export type ServerHealth = Pick<
  CircuitBreaker,
  'state' | 'subscribe' | 'recordSuccess' | 'recordFailure' | 'hurry' | 'whenClosed'
>;

/** Told every state change, after the change. */
export type CircuitListener = (state: CircuitState, previous: CircuitState) => void;

/**
 * Probe spacing while a flush waits for the server: a restarted server is
 * found within a quarter of a second, at four `/health` requests a second
 * (without a flush the spacing grows to `backoff.maxMs`, 10 s by default).
 */
export const HURRIED_PROBE_MS = 250;

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
 *
 * While a flush waits on delivery it {@link hurry hurries} the breaker: probes
 * are then at most `hurriedProbeMs` apart whatever the backoff level, so a
 * server that comes back is used at once instead of after a probe delay that
 * grew during the outage (up to `backoff.maxMs`: a short process ended before
 * its next probe and left every record on disk).
 */
export class CircuitBreaker {
  #options: CircuitBreakerOptions;
  #state: CircuitState = 'closed';
  #failures = 0;
  #probeLevel = 0;
  #timer: unknown;
  #closedWaiters: (() => void)[] = [];
  #disposed = false;
  readonly #listeners = new Set<CircuitListener>();
  /** Holders of {@link hurry} not yet released. */
  #hurried = 0;
  /** When the scheduled probe fires (`timers.now()` time). */
  #probeDueAt = 0;

  constructor(options: CircuitBreakerOptions) {
    this.#options = options;
    if (options.onChange) this.#listeners.add(options.onChange);
  }

  /** Adds a listener of state changes; returns its removal. */
  subscribe(listener: CircuitListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Probes at most `hurriedProbeMs` apart until the returned release is
   * called (a probe already scheduled later is brought forward). Holders
   * are counted; releasing twice is harmless.
   */
  hurry(): () => void {
    this.#hurried += 1;
    const { timers } = this.#options;
    if (
      this.#state === 'open' &&
      this.#timer !== undefined &&
      this.#probeDueAt - timers.now() > this.#hurriedProbeMs
    )
      this.#armProbe(this.#hurriedProbeMs);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#hurried -= 1;
    };
  }

  get #hurriedProbeMs(): number {
    return this.#options.hurriedProbeMs ?? HURRIED_PROBE_MS;
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

  /** A request failed as a server that is down fails (no answer, a timeout, a 5xx without `Retry-After`: `recordAnswer`). */
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
    const { backoff, random } = this.#options;
    // Full jitter may draw 0; a probe still waits at least baseMs so a dead server is not polled in a loop.
    const delayMs = Math.max(backoff.baseMs, backoffDelayMs(this.#probeLevel, backoff, random));
    this.#armProbe(this.#hurried > 0 ? Math.min(delayMs, this.#hurriedProbeMs) : delayMs);
    this.#emit('open', previous);
  }

  /** (Re)schedules the next probe `delayMs` from now. */
  #armProbe(delayMs: number): void {
    const { timers } = this.#options;
    if (this.#timer !== undefined) timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#disposed) return;
    this.#probeDueAt = timers.now() + delayMs;
    this.#timer = timers.setTimeout(() => {
      this.#timer = undefined;
      this.#probe();
    }, delayMs);
  }

  #emit(state: CircuitState, previous: CircuitState): void {
    for (const listener of [...this.#listeners]) listener(state, previous);
  }

  #probe(): void {
    if (this.#state !== 'open' || this.#disposed) return;
    this.#state = 'half-open';
    this.#emit('half-open', 'open');
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
    this.#emit('closed', previous);
  }
}
