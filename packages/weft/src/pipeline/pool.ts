import { setImmediate as nextTurn } from 'node:timers/promises';
import PQueue from 'p-queue';

/** Longest stretch (ms) the pool runs tasks before it lets the event loop turn. */
export const SLICE_MS = 5;

/**
 * The pool of deferred work: a p-queue with `concurrency` slots sharing the
 * event loop with the user's code.
 *
 * INVARIANT: no task ever awaits a promise that another pool task produces
 * (a digest, a re-queued finalize). Such work is chained with `.then()` and the
 * task returns, releasing its slot; otherwise a one-slot pool whose only slot
 * waits on a task queued behind it deadlocks. Tasks may await the event loop
 * (`yieldTurn`) — that is how they slice their work.
 */
export class Pool {
  readonly #queue: PQueue;
  readonly #onError: (error: unknown) => void;
  /** When the pool started holding the loop without a turn in between; undefined once the loop turned. */
  #busySince: number | undefined;
  readonly #turned = () => {
    this.#busySince = undefined;
  };

  constructor(concurrency: number, onError: (error: unknown) => void) {
    this.#queue = new PQueue({ concurrency });
    this.#onError = onError;
  }

  /**
   * Queues `task`; its failure is reported, never thrown or left unhandled.
   *
   * p-queue starts the next task in a microtask when one finishes, so tasks
   * that complete without I/O would run back to back and never let the loop
   * turn. Each task therefore first checks how long the pool has held the
   * loop and yields (`setImmediate`) once that exceeds {@link SLICE_MS}.
   */
  run(task: () => unknown): void {
    this.#queue
      .add(async () => {
        const now = performance.now();
        if (this.#busySince === undefined) {
          this.#busySince = now;
          setImmediate(this.#turned);
        } else if (now - this.#busySince > SLICE_MS) {
          await yieldTurn();
        }
        return task();
      })
      .catch(this.#onError);
  }

  /** Tasks running now. */
  get running(): number {
    return this.#queue.pending;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.#queue.size;
  }

  get concurrency(): number {
    return this.#queue.concurrency;
  }
}

/**
 * Yields to the event loop (I/O, timers, the user's callbacks) between slices
 * of pool work: a chain of resolved promises never would.
 */
export function yieldTurn(): Promise<void> {
  return nextTurn();
}
