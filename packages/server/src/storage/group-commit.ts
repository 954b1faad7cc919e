/** One submitted piece of work and the promise its submitter waits on. */
interface Waiting<T> {
  entry: T;
  size: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: entries submitted while a flush runs wait, and the next
 * flush takes all of them (up to `maxSize`) at once. At low load a flush
 * carries one request and adds no delay; under load each flush carries
 * every request that arrived during the previous one, so the number of
 * statements per second stays flat while rows per statement grow — what
 * ClickHouse wants (each INSERT makes a part).
 *
 * A submitter's promise settles only after the flush that carried its entry
 * has finished: an acknowledged entry is stored (durable as the flush makes
 * it), and one whose flush failed gets that flush's error, never a success.
 */
export class GroupCommit<T> {
  readonly #flush: (entries: readonly T[]) => Promise<void>;
  readonly #maxSize: number;
  #waiting: Waiting<T>[] = [];
  #running: Promise<void> | undefined;

  /**
   * @param flush stores entries together; its rejection fails all of them.
   * @param maxSize the most a flush takes (sizes as submitted); a single
   *   larger entry still goes, alone.
   */
  constructor(flush: (entries: readonly T[]) => Promise<void>, maxSize: number) {
    this.#flush = flush;
    this.#maxSize = maxSize;
  }

  /** Resolves once a flush carrying `entry` has stored it; rejects with that flush's error. */
  submit(entry: T, size: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ entry, size, resolve, reject });
      this.#running ??= this.#drain();
    });
  }

  /** Settles once nothing is waiting or flushing. */
  async idle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  async #drain(): Promise<void> {
    // Requests whose bodies were parsed in the same turn of the event loop
    // join the first flush.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.#waiting.length > 0) {
      const group = this.#take();
      try {
        await this.#flush(group.map((w) => w.entry));
        for (const w of group) w.resolve();
      } catch (error) {
        for (const w of group) w.reject(error);
      }
    }
    this.#running = undefined;
  }

  #take(): Waiting<T>[] {
    let size = 0;
    let count = 0;
    for (const w of this.#waiting) {
      if (count > 0 && size + w.size > this.#maxSize) break;
      size += w.size;
      count += 1;
    }
    return this.#waiting.splice(0, count);
  }
}
