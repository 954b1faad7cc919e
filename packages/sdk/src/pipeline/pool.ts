import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Backlog, Pressure } from './backlog.js';

/**
 * How much work the pool does before it lets the event loop turn: a task
 * (a record) counts once, plus the bytes its snapshot holds. Loop lag during
 * a burst is about one slice plus the user's own work per turn.
 *
 * Counted in work, not milliseconds: a garbage-collection pause inside a
 * timed slice used up the slice, so the pool fell further behind exactly
 * when the heap was under pressure, and the waiting snapshots lived longer
 * still. (The time slices were 1 ms, and 4 ms while behind; these counts are
 * about as long on a quiet machine: a 1 KB record costs some 30 µs in the
 * pool, an 80 KB one about 80 µs.)
 */
export interface Slice {
  readonly records: number;
  readonly bytes: number;
}

/** The slice while the pool keeps up: about 1 ms of work. */
export const SLICE: Slice = { records: 32, bytes: 1024 * 1024 };

/**
 * The slice while the pool is behind (see {@link Backlog}): four times as
 * long. In 80 KB bursts of the side-by-side bench, longer slices while more
 * than a quarter of the bound waited kept the backlog near empty, halved peak
 * memory and took the flush after the burst from 0.34 s to 0.02 s, with the
 * same loop-lag p99.
 */
export const BEHIND_SLICE: Slice = { records: 4 * SLICE.records, bytes: 4 * SLICE.bytes };

/** No limit: while the backlog is over its bound, the pool works until it is back under it. */
const NO_LIMIT: Slice = { records: Number.POSITIVE_INFINITY, bytes: Number.POSITIVE_INFINITY };

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
  /** Waiting tasks, oldest at `#head` (a queue without `shift()`'s copying), each one's argument and its bytes. */
  #tasks: ((arg: never) => unknown)[] = [];
  #args: unknown[] = [];
  #bytes: number[] = [];
  #head = 0;
  /** Slots taken: running a task, waiting for a task's promise, or yielding between slices. */
  #busy = 0;
  /** Whether the pool is holding the loop (it ran a task and the loop has not turned since). */
  #holding = false;
  /** Tasks run, and their bytes, since the loop last turned. */
  #sliceRecords = 0;
  #sliceBytes = 0;
  readonly #turned = (): void => {
    this.#holding = false;
    this.#sliceRecords = 0;
    this.#sliceBytes = 0;
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

  /** `backlog`: how far behind the pool's work is; it sets the slice length (without one, always {@link SLICE}). */
  constructor(concurrency: number, onError: (error: unknown) => void, backlog?: Backlog) {
    this.#concurrency = concurrency;
    this.#onError = onError;
    this.#backlog = backlog;
  }

  /**
   * Queues `task` (called with `arg`: a shared function and its argument
   * cost no closure per task); its failure (a throw or a rejected promise) is
   * reported, never thrown or left unhandled. The task starts on this turn
   * when a slot is free. `bytes`: what it reads (a record's snapshot), which
   * counts toward the slice (see {@link Slice}).
   */
  run<T>(task: (arg: T) => unknown, arg?: T, bytes = 0): void {
    this.#tasks.push(task as (arg: never) => unknown);
    this.#args.push(arg);
    this.#bytes.push(bytes);
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
   * after I/O and timers had their turn): {@link SLICE}, longer while
   * the backlog is behind, unlimited while it is over its bound.
   */
  #work(): void {
    for (;;) {
      if (this.#head >= this.#tasks.length) {
        this.#busy--;
        if (this.#head > 0) {
          this.#tasks = [];
          this.#args = [];
          this.#bytes = [];
          this.#head = 0;
        }
        return;
      }
      if (!this.#holding) {
        this.#holding = true;
        setImmediate(this.#turned);
      } else {
        const slice = this.#slice();
        if (this.#sliceRecords >= slice.records || this.#sliceBytes >= slice.bytes) {
          setImmediate(this.#resume);
          return;
        }
      }
      const task = this.#tasks[this.#head] as (arg: unknown) => unknown;
      const arg = this.#args[this.#head];
      this.#sliceRecords++;
      this.#sliceBytes += this.#bytes[this.#head] as number;
      // The slot must not retain a finished task or its argument.
      this.#tasks[this.#head] = noop;
      this.#args[this.#head] = undefined;
      this.#head++;
      if (this.#head > 1_024 && this.#head * 2 > this.#tasks.length) {
        this.#tasks = this.#tasks.slice(this.#head);
        this.#args = this.#args.slice(this.#head);
        this.#bytes = this.#bytes.slice(this.#head);
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

  #slice(): Slice {
    switch (this.#backlog?.pressure) {
      case Pressure.Over:
        return NO_LIMIT;
      case Pressure.Behind:
        return BEHIND_SLICE;
      default:
        return SLICE;
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
