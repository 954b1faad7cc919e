/** A digest queued for its server and not acknowledged yet (its acknowledgement number otherwise). */
const UNACKNOWLEDGED = 0;

/**
 * The digests this client has handed to the transport for its server (sent,
 * in flight, or in the outbox), least recently used first, bounded by count:
 * each entry costs about 100 bytes, so the default 100,000 hold ~10 MB.
 *
 * It is a belief, not a fact: the server may have lost a value (a wiped
 * database, a dropped batch). The server's `missingValues` answer corrects
 * it ({@link forget}), and the record that referred to the value sends it
 * again from the bytes it kept.
 *
 * A `missingValues` answer is also given when the value is on its way: two
 * batches are in flight at once, and a retried or slow batch that carries a
 * value can reach the server after a later batch that refers to it. Sending
 * the value again then would make the bytes sent depend on timing (a loaded
 * machine sent a RAG loop's values 3–4 times over). So the memory also knows
 * which value items have a request out ({@link sending}) and when each was
 * acknowledged ({@link acknowledged}), and {@link whenMissing} sends a value
 * again only when the server really lacks it.
 */
export class KnownValues {
  readonly #max: number;
  /**
   * Digest → its acknowledgement number ({@link UNACKNOWLEDGED} until the
   * server acknowledged it). Map order is the LRU order: a hit is deleted
   * and set again (moved to the end).
   */
  readonly #digests = new Map<string, number>();
  /** Acknowledgements so far: the clock {@link mark} reads. */
  #acks = 0;
  /**
   * Value items with a request out, and what waits for their outcome. Apart
   * from the LRU, so an evicted digest still settles its waiters: every item
   * here gets exactly one outcome from the batcher.
   */
  readonly #inFlight = new Map<string, ((sent: boolean) => void)[]>();

  constructor(maxEntries: number) {
    this.#max = maxEntries;
  }

  /** Whether `digest` was delivered; a hit counts as a use. */
  has(digest: string): boolean {
    const acked = this.#digests.get(digest);
    if (acked === undefined) return false;
    this.#digests.delete(digest);
    this.#digests.set(digest, acked);
    return true;
  }

  add(digest: string): void {
    const acked = this.#digests.get(digest) ?? UNACKNOWLEDGED;
    this.#digests.delete(digest);
    this.#digests.set(digest, acked);
    if (this.#digests.size > this.#max) {
      const oldest = this.#digests.keys().next().value as string;
      this.#digests.delete(oldest);
    }
  }

  /** The server does not have it (or it was rejected): the next record that refers to it sends it. */
  forget(digest: string): void {
    this.#digests.delete(digest);
  }

  /** The clock of acknowledgements: a record reads it when it is handed to the transport. */
  get mark(): number {
    return this.#acks;
  }

  /** A value item of `digest` was handed to the transport: its outcome will come ({@link settled}). */
  sending(digest: string): void {
    if (!this.#inFlight.has(digest)) this.#inFlight.set(digest, []);
  }

  /** The value item of `digest` has its outcome: `sent` (the server stored it) or not (failed, spilled). */
  settled(digest: string, sent: boolean): void {
    if (sent && this.#digests.has(digest)) this.#digests.set(digest, ++this.#acks);
    const waiters = this.#inFlight.get(digest);
    if (waiters === undefined) return;
    this.#inFlight.delete(digest);
    for (const waiter of waiters) waiter(sent);
  }

  /**
   * The server answered that it lacks `digest` for a record handed to the
   * transport at `since` (a {@link mark}): calls `resend(true)` when the
   * record must send it again, `resend(false)` when it is on its way — its
   * item still has a request out and then reached the server, or was
   * acknowledged after that record was handed over (so the two batches
   * crossed). Once, possibly at once.
   */
  whenMissing(digest: string, since: number, resend: (needed: boolean) => void): void {
    const waiters = this.#inFlight.get(digest);
    if (waiters !== undefined) {
      waiters.push((sent) => resend(!sent));
      return;
    }
    const acked = this.#digests.get(digest);
    resend(acked === undefined || acked <= since);
  }

  get size(): number {
    return this.#digests.size;
  }
}
