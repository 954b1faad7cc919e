import type { RecordOutcome } from '../transport/index.js';
import { DedupedDelivery, type ValueSink } from './deduped-delivery.js';
import { EncodeTimeDedup } from './encode-time-dedup.js';
import { KnownValues } from './known-values.js';
import { RecordDeduper } from './record-deduper.js';
import { type RecordValues, ValueMarkers } from './value-markers.js';

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
  /** The safe encoder's hook: records it writes are deduplicated as they are written. */
  readonly encoding: EncodeTimeDedup;
  #counts = { records: 0, valuesSent: 0, bytesAfter: 0 };

  constructor({ thresholdBytes, maxKnownValues }: ValueDedupOptions) {
    this.#known = new KnownValues(maxKnownValues);
    const markers = new ValueMarkers(thresholdBytes, this.#known);
    this.#deduper = new RecordDeduper(markers);
    this.encoding = new EncodeTimeDedup(markers);
  }

  /**
   * Hands the record to `sink`, deduplicated: returns false (and adds
   * nothing) when nothing in it is large, so the caller adds it as it is.
   * `values`: what {@link encoding} found while the record was written
   * (the record is final); without it the encoded record is read and
   * rewritten. `done` is called once, as for a record added directly.
   */
  deliver(
    sink: ValueSink,
    record: { callId: string; bytes: Uint8Array; done: (outcome: RecordOutcome) => void },
    values?: RecordValues,
  ): boolean {
    const deduped =
      values === undefined
        ? this.#deduper.dedup(record.bytes)
        : { send: values.send, sources: values.sources, bytes: record.bytes };
    if (deduped === undefined) return false;
    const c = this.#counts;
    c.records++;
    c.valuesSent += deduped.send.length;
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

  /** Records deduplicated, value items sent, and the bytes sent for them (records and value items). */
  get stats() {
    return { ...this.#counts, knownValues: this.#known.size };
  }
}
