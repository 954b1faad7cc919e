import type { RecordOutcome } from '../transport/index.js';
import type { KnownValues } from './known-values.js';
import type { DedupedRecord } from './record-deduper.js';
import { valueItemFor } from './value-item.js';

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
 * from the bytes the record kept. The outcome is the worst of them: a value
 * that failed makes the record's outcome failed (its marker would not
 * resolve).
 *
 * ```
 * start ─► add(value items…) ─► add(record)
 *            each outcome ─┬─ sent + missingValues ─► add(the missing values, whole) ─┐
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
    for (const value of this.#record.send) this.#add(value.bytes, value.digest);
    this.#add(this.#record.bytes, undefined);
  }

  #add(bytes: Uint8Array, digest: string | undefined): void {
    this.#pending++;
    this.#sink.add({ callId: this.#callId, bytes, done: (outcome) => this.#settled(outcome, digest) });
  }

  #settled(outcome: RecordOutcome, digest: string | undefined): void {
    switch (outcome.status) {
      case 'failed':
        // The server never stored it: the next record that refers to it must send it.
        if (digest !== undefined) this.#known.forget(digest);
        if (this.#outcome.status !== 'failed') this.#outcome = outcome;
        break;
      case 'spilled':
        if (this.#outcome.status === 'sent') this.#outcome = outcome;
        break;
      case 'sent':
        if (outcome.missingValues !== undefined) this.#resend(outcome.missingValues);
    }
    if (--this.#pending === 0) this.#done(this.#outcome);
  }

  /** Sends again each missing value this record can produce (others belong to other records of the batch). */
  #resend(missing: readonly string[]): void {
    for (const digest of missing) {
      this.#resends ??= new Map();
      const times = this.#resends.get(digest) ?? 0;
      if (times >= MAX_RESENDS) continue;
      for (const source of this.#record.sources) {
        const item = valueItemFor(source, digest);
        if (item === undefined) continue;
        this.#resends.set(digest, times + 1);
        this.#known.add(digest);
        this.#add(item, digest);
        break;
      }
    }
  }
}
