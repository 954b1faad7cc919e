import { setImmediate as nextTurn } from 'node:timers/promises';
import PQueue from 'p-queue';

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

  constructor(concurrency: number, onError: (error: unknown) => void) {
    this.#queue = new PQueue({ concurrency });
    this.#onError = onError;
  }

  /** Queues `task`; its failure is reported, never thrown or left unhandled. */
  run(task: () => unknown): void {
    this.#queue.add(task).catch(this.#onError);
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
