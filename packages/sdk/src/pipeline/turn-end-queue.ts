import { outsideCalls } from '../context/index.js';

/**
 * Items handled once the code of the current turn has run: one microtask
 * for all that were pushed meanwhile (no closure per item), outside any
 * call's context (so what it starts — a batch timer, a request — does not
 * hold the caller's context).
 */
export class TurnEndQueue<T> {
  readonly #handle: (item: T) => void;
  readonly #onError: (error: unknown) => void;
  #items: T[] = [];
  #scheduled = false;
  readonly #run = (): void => {
    this.#scheduled = false;
    const items = this.#items;
    this.#items = [];
    for (const item of items) {
      try {
        this.#handle(item);
      } catch (error) {
        // As the pool reports a task's failure: never thrown into the caller's turn, never the next item lost.
        this.#onError(error);
      }
    }
  };

  /** `onError` hears what `handle` throws (and must not throw itself). */
  constructor(handle: (item: T) => void, onError: (error: unknown) => void) {
    this.#handle = handle;
    this.#onError = onError;
  }

  /** Items waiting for the end of this turn. */
  get pending(): number {
    return this.#items.length;
  }

  push(item: T): void {
    this.#items.push(item);
    if (this.#scheduled) return;
    this.#scheduled = true;
    outsideCalls(() => queueMicrotask(this.#run));
  }
}
