import { setImmediate as nextTurn } from 'node:timers/promises';

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
 * Longest stretch (ms) while the pipeline is behind (see `backpressure.ts`).
 * The pool shares the loop with the user's code: with 1 ms slices, a burst of
 * 64 concurrent agent steps (about 6 ms of the user's own work per turn) got
 * a seventh of the loop, so calls were made many times faster than they were
 * encoded and sent, and waited in memory. A longer slice while behind gives
 * the pipeline an even share: the user's calls are never blocked, each loop
 * turn simply carries more of the pipeline's work.
 */
export const BEHIND_SLICE_MS = 4;

/**
 * Longest stretch (ms) while the calls waiting for the pipeline are past
 * their byte bound (`maxWaitingBytes`). The bound can hold without blocking a
 * caller only if the pipeline processes calls as fast as they are made; here
 * the pool takes most of each loop turn until it is back under the bound,
 * trading loop lag (only in that overload) for memory. (16 ms slices, before
 * moves past the bound were gated on the spill backlog, encoded far faster
 * than the outbox took the excess: an 80 KB burst on a loaded machine peaked
 * at 1,169 MB RSS against 694 MB for the build without the bound.)
 */
export const OVER_BOUND_SLICE_MS = 8;

/** How far behind the work behind the pool is: sets the slice length. */
export type PoolPressure = 'normal' | 'behind' | 'over-bound';

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
  /**
   * Waiting tasks are `#tasks[#head…#tail)` (a queue without `shift()`'s
   * copying), with each one's argument. The arrays are kept when the queue
   * empties (up to {@link KEPT_SLOTS}): a fresh array per burst, regrown call
   * by call, was about 380 bytes of garbage per traced call.
   */
  #tasks: ((arg: never) => unknown)[] = [];
  #args: unknown[] = [];
  #head = 0;
  #tail = 0;
  /** Slots taken: running a task, waiting for a task's promise, or yielding between slices. */
  #busy = 0;
  /** The current slice length, {@link SLICE_MS} or, while the pipeline is behind, {@link BEHIND_SLICE_MS}. */
  #sliceMs = SLICE_MS;
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

  constructor(concurrency: number, onError: (error: unknown) => void) {
    this.#concurrency = concurrency;
    this.#onError = onError;
  }

  /**
   * Queues `task` (called with `arg`: a shared function and its argument
   * cost no closure per task); its failure (a throw or a rejected promise) is
   * reported, never thrown or left unhandled. The task starts on this turn
   * when a slot is free.
   */
  run<T>(task: (arg: T) => unknown, arg?: T): void {
    this.#tasks[this.#tail] = task as (arg: never) => unknown;
    this.#args[this.#tail] = arg;
    this.#tail++;
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
    return this.#tail - this.#head;
  }

  get concurrency(): number {
    return this.#concurrency;
  }

  /** How far behind the user's code the work behind the pool is (longer slices; see {@link BEHIND_SLICE_MS}). */
  set pressure(pressure: PoolPressure) {
    this.#sliceMs =
      pressure === 'normal' ? SLICE_MS : pressure === 'behind' ? BEHIND_SLICE_MS : OVER_BOUND_SLICE_MS;
  }

  /**
   * One taken slot runs tasks until the queue is empty (the slot is freed), a
   * task returns a promise (the slot waits for it), or the pool has held the
   * loop for {@link SLICE_MS} (the slot yields with `setImmediate` and goes on
   * after I/O and timers had their turn).
   */
  #work(): void {
    for (;;) {
      if (this.#head >= this.#tail) {
        this.#busy--;
        this.#head = 0;
        this.#tail = 0;
        if (this.#tasks.length > KEPT_SLOTS) {
          this.#tasks = [];
          this.#args = [];
        }
        return;
      }
      const now = performance.now();
      if (this.#busySince === undefined) {
        this.#busySince = now;
        setImmediate(this.#turned);
      } else if (now - this.#busySince > this.#sliceMs) {
        setImmediate(this.#resume);
        return;
      }
      const task = this.#tasks[this.#head] as (arg: unknown) => unknown;
      const arg = this.#args[this.#head];
      // The slot must not retain a finished task or its argument.
      this.#tasks[this.#head] = noop;
      this.#args[this.#head] = undefined;
      this.#head++;
      if (this.#head > 1_024 && this.#head * 2 > this.#tail) {
        // Move the waiting tasks to the front, in place; the slots they left were cleared as they ran.
        const waiting = this.#tail - this.#head;
        this.#tasks.copyWithin(0, this.#head, this.#tail);
        this.#args.copyWithin(0, this.#head, this.#tail);
        this.#tasks.fill(noop, waiting, this.#tail);
        this.#args.fill(undefined, waiting, this.#tail);
        this.#head = 0;
        this.#tail = waiting;
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

  #report(error: unknown): void {
    try {
      this.#onError(error);
    } catch {
      // The error channel itself failed; a pool task's failure must not escape.
    }
  }
}

function noop(): void {}

/** Queue slots kept for the next burst once the queue empties; a larger queue's arrays are left to the garbage collector. */
const KEPT_SLOTS = 16_384;

/**
 * Yields to the event loop (I/O, timers, the user's callbacks) between slices
 * of pool work: a chain of resolved promises never would.
 */
export function yieldTurn(): Promise<void> {
  return nextTurn();
}
