/**
 * The digests this client has handed to the transport for its server (sent,
 * in flight, or in the outbox), least recently used first, bounded by count:
 * each entry costs about 100 bytes, so the default 100,000 hold ~10 MB.
 *
 * It is a belief, not a fact: the server may have lost a value (a wiped
 * database, a dropped batch). The server's `missingValues` answer corrects
 * it ({@link forget}), and the record that referred to the value sends it
 * again from the bytes it kept.
 */
export class KnownValues {
  readonly #max: number;
  /** Map order is the LRU order: a hit is deleted and set again (moved to the end). */
  readonly #digests = new Map<string, true>();

  constructor(maxEntries: number) {
    this.#max = maxEntries;
  }

  /** Whether `digest` was delivered; a hit counts as a use. */
  has(digest: string): boolean {
    if (!this.#digests.delete(digest)) return false;
    this.#digests.set(digest, true);
    return true;
  }

  add(digest: string): void {
    this.#digests.delete(digest);
    this.#digests.set(digest, true);
    if (this.#digests.size > this.#max) {
      const oldest = this.#digests.keys().next().value as string;
      this.#digests.delete(oldest);
    }
  }

  /** The server does not have it (or it was rejected): the next record that refers to it sends it. */
  forget(digest: string): void {
    this.#digests.delete(digest);
  }

  get size(): number {
    return this.#digests.size;
  }
}
