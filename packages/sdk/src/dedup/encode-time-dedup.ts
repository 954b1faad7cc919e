import type { WrittenValueHook } from '../values/index.js';
import type { RecordValues, ValueMarkers } from './value-markers.js';
import type { ValueSource } from './value-item.js';

/**
 * Deduplicates a record while the safe encoder writes it (the common case):
 * the encoder asks about each value in the record's `inputs` members and
 * `output` once it is written, bottom-up, and writes the marker over a large
 * one in place. A large string remembered from an earlier record is not
 * written at all. So no second pass reads the record, no copy rebuilds it,
 * and a repeated 80 KB text costs a map lookup instead of an encode and a
 * comparison.
 *
 * One record at a time (encoding is synchronous): {@link begin}, encode,
 * then {@link finish} when the encoder succeeded or {@link abort} when it
 * gave up (the Sanitizer takes the record, and the byte-level
 * `RecordDeduper` deduplicates what it encodes).
 */
export class EncodeTimeDedup implements WrittenValueHook {
  readonly thresholdBytes: number;
  readonly #markers: ValueMarkers;
  #work: RecordValues = { send: [], sources: [] };

  constructor(markers: ValueMarkers) {
    this.#markers = markers;
    this.thresholdBytes = markers.thresholdBytes;
  }

  /** Starts a record (forgetting what an unfinished earlier one meant to send). */
  begin(): void {
    if (this.#work.sources.length > 0) this.abort();
  }

  knownString(s: string): Uint8Array | undefined {
    return this.#markers.string(s, this.#work);
  }

  written(b: Uint8Array, start: number, end: number, s?: string): Uint8Array | undefined {
    return this.#markers.written(b, start, end, this.#work, s);
  }

  checkpoint(): number {
    return this.#work.sources.length;
  }

  since(checkpoint: number): readonly unknown[] {
    return this.#work.sources.slice(checkpoint);
  }

  replay(noted: readonly unknown[]): void {
    for (const source of noted as readonly ValueSource[]) this.#markers.again(source, this.#work);
  }

  /** The record was encoded: the values it refers to, or `undefined` when it holds no large value. */
  finish(): RecordValues | undefined {
    const work = this.#work;
    if (work.sources.length === 0) return undefined;
    this.#work = { send: [], sources: [] };
    return work;
  }

  /** The encoder gave up on the record: none of its value items will be sent from here. */
  abort(): void {
    this.#markers.forget(this.#work);
    this.#work = { send: [], sources: [] };
  }
}
