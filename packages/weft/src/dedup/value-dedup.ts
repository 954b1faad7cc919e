import type { RecordOutcome } from '../transport/index.js';
import { DedupedDelivery, type ValueSink } from './deduped-delivery.js';
import { KnownValues } from './known-values.js';
import { RecordDeduper } from './record-deduper.js';

/** Options of {@link ValueDedup}. */
export interface ValueDedupOptions {
  /** Encoded size from which a value is sent once. @default 1024 */
  thresholdBytes: number;
  /** Digests remembered as delivered (LRU). @default 100_000 */
  maxKnownValues: number;
}

export const DEFAULT_DEDUP_THRESHOLD_BYTES = 1_024;
export const DEFAULT_MAX_KNOWN_VALUES = 100_000;

/**
 * Structural deduplication for one client and its server: large values that
 * repeat across calls (chat histories, system prompts, tool definitions,
 * documents) are sent once and referred to by digest (see docs/values.md,
 * "Values sent once"). Runs in the pool, on records already encoded.
 */
export class ValueDedup {
  readonly #known: KnownValues;
  readonly #deduper: RecordDeduper;
  #counts = { records: 0, valuesSent: 0, bytesBefore: 0, bytesAfter: 0 };

  constructor({ thresholdBytes, maxKnownValues }: ValueDedupOptions) {
    this.#known = new KnownValues(maxKnownValues);
    this.#deduper = new RecordDeduper({ thresholdBytes, known: this.#known });
  }

  /**
   * Hands the record to `sink`, deduplicated: returns false (and adds
   * nothing) when nothing in it is large, so the caller adds it as it is.
   * `done` is called once, as for a record added directly.
   */
  deliver(
    sink: ValueSink,
    record: { callId: string; bytes: Uint8Array; done: (outcome: RecordOutcome) => void },
  ): boolean {
    const deduped = this.#deduper.dedup(record.bytes);
    if (deduped === undefined) return false;
    const c = this.#counts;
    c.records++;
    c.valuesSent += deduped.send.length;
    c.bytesBefore += record.bytes.byteLength;
    c.bytesAfter += deduped.bytes.byteLength;
    for (const value of deduped.send) c.bytesAfter += value.bytes.byteLength;
    new DedupedDelivery({
      sink,
      known: this.#known,
      callId: record.callId,
      record: deduped,
      done: record.done,
    }).start();
    return true;
  }

  /** Records deduplicated, value items sent, and their bytes before and after (record and value items). */
  get stats() {
    return { ...this.#counts, knownValues: this.#known.size };
  }
}
