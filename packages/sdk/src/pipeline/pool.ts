import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Backlog, Pressure } from './backlog.js';

/**
 * Longest stretch (ms) the pool runs tasks before it lets the event loop turn.
 * Loop lag during a burst is about this plus the user's own work per turn.
 * (5 ms was needed while each task cost a p-queue promise chain. With the
 * slot pool and the one-pass encoder a record costs tens of microseconds, and
 * in paired burst runs 1 ms gave a lower loop-lag p99 than 2 or 3 ms, for both
 * 1 KB and 80 KB records, without slowing the burst.)
 */
export const SLICE_MS = 1;

/**
 * Slice while the pool is behind (see {@link Backlog}). In 80 KB bursts of
 * the side-by-side bench, 4 ms while more than a quarter of the bound
 * waited kept the backlog near empty, halved peak memory and took the flush
 * after the burst from 0.34 s to 0.02 s, with the same loop-lag p99 as 1 ms.
 */
export const BEHIND_SLICE_MS = 4;

/**
 * The pool of deferred work: `concurrency` slots sharing the event loop with
 * the user's code.
 *
 * A slot runs queued tasks back to back in one turn while they complete
 * synchronously: no promise, closure or microtask per task (p-queue spent
 * several of each per task, and their garbage was a large part of the GC
 * time tracing cost). A task that returns a promise holds its slot until the
 * promise settles, then the slot goes on with the next task.
 *
 * INVARIANT: no task ever awaits a promise that another pool task produces
 * (a digest, a re-queued finalize). Such work is chained with `.then()` and the
 * task returns, releasing its slot; otherwise a one-slot pool whose only slot
 * waits on a task queued behind it deadlocks. Tasks may await the event loop
 * (`yieldTurn`) — that is how they slice their work.
 */
export class Pool {
  readonly #concurrency: number;
  readonly #onError: (error: unknown) => void;
  /** Waiting tasks, oldest at `#head` (a queue without `shift()`'s copying), and each one's argument. */
  #tasks: ((arg: never) => unknown)[] = [];
  #args: unknown[] = [];
  #head = 0;
  /** Slots taken: running a task, waiting for a task's promise, or yielding between slices. */
  #busy = 0;
  /** When the pool started holding the loop without a turn in between; undefined once the loop turned. */
  #busySince: number | undefined;
  readonly #turned = (): void => {
    this.#busySince = undefined;
  };
  /** Continues a slot after its task's promise settled or after a yield (slots are interchangeable). */
  readonly #resume = (): void => {
    this.#work();
  };
  readonly #failed = (error: unknown): void => {
    this.#report(error);
    this.#work();
  };

  readonly #backlog: Backlog | undefined;

  /** `backlog`: how far behind the pool's work is; it sets the slice length (without one, always {@link SLICE_MS}). */
  constructor(concurrency: number, onError: (error: unknown) => void, backlog?: Backlog) {
    this.#concurrency = concurrency;
    this.#onError = onError;
    this.#backlog = backlog;
  }

  /**
   * Queues `task` (called with `arg`: a shared function and its argument
   * cost no closure per task); its failure (a throw or a rejected promise) is
   * reported, never thrown or left unhandled. The task starts on this turn
   * when a slot is free.
   */
  run<T>(task: (arg: T) => unknown, arg?: T): void {
    this.#tasks.push(task as (arg: never) => unknown);
    this.#args.push(arg);
    if (this.#busy < this.#concurrency) {
      this.#busy++;
      this.#work();
    }
  }

  /** Slots taken now (running, awaiting a task's promise, or yielding between slices). */
  get running(): number {
    return this.#busy;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.#tasks.length - this.#head;
  }

  get concurrency(): number {
    return this.#concurrency;
  }

  /**
   * One taken slot runs tasks until the queue is empty (the slot is freed), a
   * task returns a promise (the slot waits for it), or the pool has held the
   * loop for its slice (the slot yields with `setImmediate` and goes on
   * after I/O and timers had their turn): {@link SLICE_MS}, longer while
   * the backlog is behind, unlimited while it is over its bound.
   */
  #work(): void {
    for (;;) {
      if (this.#head >= this.#tasks.length) {
        this.#busy--;
        if (this.#head > 0) {
          this.#tasks = [];
          this.#args = [];
          this.#head = 0;
        }
        return;
      }
      const now = performance.now();
      if (this.#busySince === undefined) {
        this.#busySince = now;
        setImmediate(this.#turned);
      } else if (now - this.#busySince > this.#sliceMs()) {
        setImmediate(this.#resume);
        return;
      }
      const task = this.#tasks[this.#head] as (arg: unknown) => unknown;
      const arg = this.#args[this.#head];
      // The slot must not retain a finished task or its argument.
      this.#tasks[this.#head] = noop;
      this.#args[this.#head] = undefined;
      this.#head++;
      if (this.#head > 1_024 && this.#head * 2 > this.#tasks.length) {
        this.#tasks = this.#tasks.slice(this.#head);
        this.#args = this.#args.slice(this.#head);
        this.#head = 0;
      }
      let result: unknown;
      try {
        result = task(arg);
      } catch (error) {
        this.#report(error);
        continue;
      }
      if (result instanceof Promise) {
        result.then(this.#resume, this.#failed);
        return;
      }
    }
  }

  #sliceMs(): number {
    switch (this.#backlog?.pressure) {
      case Pressure.Over:
        return Number.POSITIVE_INFINITY;
      case Pressure.Behind:
        return BEHIND_SLICE_MS;
      default:
        return SLICE_MS;
    }
  }

  #report(error: unknown): void {
    try {
      this.#onError(error);
    } catch {
      // The error channel itself failed; a pool task's failure must not escape.
    }
  }
}

function noop(): void {}

/**
 * Yields to the event loop (I/O, timers, the user's callbacks) between slices
 * of pool work: a chain of resolved promises never would.
 */
export function yieldTurn(): Promise<void> {
  return nextTurn();
}
