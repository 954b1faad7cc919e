import type { RecordOutcome } from '../transport/index.js';
import type { KnownValues } from './known-values.js';
import type { DedupedRecord } from './record-deduper.js';
import { sourceHolds, valueItemFor } from './value-item.js';

/** Where records go (the batcher): the narrow part of the pipeline's sink that delivery needs. */
export interface ValueSink {
  add(record: { callId: string; bytes: Uint8Array; done: (outcome: RecordOutcome) => void }): void;
}

/** Times one record sends the same value again on the server's word that it lacks it. */
const MAX_RESENDS = 3;

/**
 * Delivers one deduplicated record through the sink — its value items
 * first, then the record, all as ordinary batch items (same batches, same
 * retries, same outbox) — and calls `done` once, when each has an outcome
 * and every value the server said it lacked (`missingValues`) was sent again
 * from the bytes the record kept — unless that value was on its way in
 * another batch and got there (see `KnownValues.whenMissing`), so what is
 * sent does not depend on which batch the server answered first. The outcome is the worst of them: a value
 * that failed makes the record's outcome failed (its marker would not
 * resolve).
 *
 * ```
 * start ─► add(value items…) ─► add(record)
 *            each outcome ─┬─ sent + missingValues ─► add(the missing values, whole) ─┐
 *                          │   (each: on its way? wait for its item's outcome, then only if it failed)
 *                          └─ settled ─► last one? ─► done(worst outcome)  ◄──────────┘
 * ```
 */
export class DedupedDelivery {
  readonly #sink: ValueSink;
  readonly #known: KnownValues;
  readonly #callId: string;
  readonly #record: DedupedRecord;
  readonly #done: (outcome: RecordOutcome) => void;
  #pending = 0;
  #outcome: RecordOutcome = { status: 'sent' };
  #resends: Map<string, number> | undefined;
  /** The known values' clock when the record was handed over: a value acknowledged later crossed it. */
  #since = 0;

  constructor(options: {
    sink: ValueSink;
    known: KnownValues;
    callId: string;
    record: DedupedRecord;
    done: (outcome: RecordOutcome) => void;
  }) {
    this.#sink = options.sink;
    this.#known = options.known;
    this.#callId = options.callId;
    this.#record = options.record;
    this.#done = options.done;
  }

  start(): void {
    this.#since = this.#known.mark;
    for (const value of this.#record.send) this.#add(value.bytes, value.digest);
    this.#add(this.#record.bytes, undefined);
  }

  #add(bytes: Uint8Array, digest: string | undefined): void {
    this.#pending++;
    if (digest !== undefined) this.#known.sending(digest);
    this.#sink.add({ callId: this.#callId, bytes, done: (outcome) => this.#settled(outcome, digest) });
  }

  #settled(outcome: RecordOutcome, digest: string | undefined): void {
    switch (outcome.status) {
      case 'failed':
        // The server never stored it: the next record that refers to it must send it.
        if (digest !== undefined) {
          this.#known.forget(digest);
          this.#known.settled(digest, false);
        }
        if (this.#outcome.status !== 'failed') this.#outcome = outcome;
        break;
      case 'spilled':
        if (digest !== undefined) this.#known.settled(digest, false);
        if (this.#outcome.status === 'sent') this.#outcome = outcome;
        break;
      case 'sent':
        if (digest !== undefined) this.#known.settled(digest, true);
        if (outcome.missingValues !== undefined) this.#whenMissing(outcome.missingValues);
    }
    this.#release();
  }

  #release(): void {
    if (--this.#pending === 0) this.#done(this.#outcome);
  }

  /**
   * Each missing value this record can produce (others belong to other
   * records of the batch), once it is known whether it is on its way: sent
   * again only if it is not.
   */
  #whenMissing(missing: readonly string[]): void {
    for (const digest of missing) {
      if (!this.#record.sources.some((source) => sourceHolds(source, digest))) continue;
      // Held open until the answer: a value sent again must be counted before `done`.
      this.#pending++;
      this.#known.whenMissing(digest, this.#since, (needed) => {
        if (needed) this.#resend(digest);
        this.#release();
      });
    }
  }

  /** Sends `digest` again from the first of this record's sources that holds it. */
  #resend(digest: string): void {
    this.#resends ??= new Map();
    const times = this.#resends.get(digest) ?? 0;
    if (times >= MAX_RESENDS) return;
    for (const source of this.#record.sources) {
      const item = valueItemFor(source, digest);
      if (item === undefined) continue;
      this.#resends.set(digest, times + 1);
      this.#known.add(digest);
      this.#add(item, digest);
      return;
    }
  }
}
