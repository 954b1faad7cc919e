import type { Timers } from '../../../src/transport/timers.js';

interface Pending {
  id: number;
  fn: () => void;
  delayMs: number;
  dueMs: number;
}

/**
 * Timers a test fires by hand: it sees every delay the code asked for and
 * decides when time passes, so backoff and intervals are asserted exactly and
 * nothing waits on the wall clock.
 */
export class ManualTimers implements Timers {
  #now: number;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  /** Every delay requested so far, in order. */
  readonly requested: number[] = [];
  #waiters: (() => void)[] = [];

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.#now = startMs;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#nextId++;
    this.requested.push(ms);
    this.#pending.set(id, { id, fn, delayMs: ms, dueMs: this.#now + ms });
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#pending.delete(handle as number);
  }

  now(): number {
    return this.#now;
  }

  /** Delays of the timers not yet fired, soonest first. */
  get pendingDelays(): number[] {
    return this.#sorted().map((timer) => timer.delayMs);
  }

  /** Resolves when at least one timer is pending (at once if one already is). */
  whenAnyPending(): Promise<void> {
    if (this.#pending.size > 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /**
   * Fires timers one at a time, each as soon as one is pending, until `done`
   * settles: lets backoff and probes run to completion without real waiting.
   */
  async runUntil<T>(done: Promise<T>): Promise<T> {
    let settled = false;
    const watched = done.finally(() => {
      settled = true;
    });
    while (!settled) {
      await Promise.race([watched, this.whenAnyPending()]);
      if (!settled) this.fireNext();
      // Let the fired callback's promise chains and I/O run before looking again.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return watched;
  }

  /** Advances the clock by `ms`, firing every timer due by then, in due order. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const next = this.#sorted()[0];
      if (next === undefined || next.dueMs > until) break;
      this.#pending.delete(next.id);
      this.#now = Math.max(this.#now, next.dueMs);
      next.fn();
    }
    this.#now = until;
  }

  /** Fires the soonest timer (advancing the clock to it); false when none is pending. */
  fireNext(): boolean {
    const next = this.#sorted()[0];
    if (next === undefined) return false;
    this.advance(next.dueMs - this.#now);
    return true;
  }

  #sorted(): Pending[] {
    return [...this.#pending.values()].sort((a, b) => a.dueMs - b.dueMs || a.id - b.id);
  }
}
