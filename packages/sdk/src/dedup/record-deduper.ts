import { MsgpackKind as Kind, readMsgpackHeader, skipMsgpackValue } from '@weft/protocol';
import { type RecordValues, Replacement, replacementOf, type ValueMarkers } from './value-markers.js';

/** A record after deduplication: its bytes with each large value replaced by its marker, and its values. */
export interface DedupedRecord extends RecordValues {
  bytes: Uint8Array;
}

const INPUTS_KEY = Uint8Array.from([0xa6, ...Array.from('inputs', (c) => c.charCodeAt(0))]);
const OUTPUT_KEY = Uint8Array.from([0xa6, ...Array.from('output', (c) => c.charCodeAt(0))]);

type Work = RecordValues;

/**
 * Sends each large value once: rewrites an encoded call record so that every
 * value in its `inputs` members and its `output` whose encoding is at least
 * `thresholdBytes` is replaced by a `{ _weft: 'value', digest }` marker,
 * bottom-up (a message whose long text became a marker may itself be small
 * enough to stay inline). Works on the encoded bytes, for records the
 * Sanitizer's encoder made; records of the one-pass safe encoder are
 * deduplicated as they are written (`EncodeTimeDedup`), by the same rule
 * ({@link ValueMarkers}), without this second pass and its copy.
 *
 * Cheap tests first: a record smaller than the threshold is returned
 * untouched without reading it; a value smaller than the threshold is
 * skipped by its length, never hashed. Each byte of a large value is hashed
 * at most once per record (strings are digested with a normalized header,
 * so the same text encoded by either encoder has one digest), and not at all
 * when the same bytes were digested recently (`DigestMemo` compares
 * bytes instead).
 *
 * Arrays of sizeable items are content-addressed as a chain (see
 * `arrayDigest`): the digest of every prefix is known, so a history that
 * grew by two messages since the last call is sent as "the delivered array
 * plus these two items".
 */
export class RecordDeduper {
  readonly #threshold: number;
  readonly #markers: ValueMarkers;

  constructor(markers: ValueMarkers) {
    this.#threshold = markers.thresholdBytes;
    this.#markers = markers;
  }

  /** The record with large values replaced, or `undefined` when nothing in it is large. */
  dedup(item: Uint8Array): DedupedRecord | undefined {
    if (item.byteLength < this.#threshold) return undefined;
    const h = readMsgpackHeader(item, 0);
    if (h.kind !== Kind.Map) return undefined;
    const count = h.size;
    let pos = h.headerLength;
    const parts: Uint8Array[] = [item.subarray(0, pos)];
    const work: Work = { send: [], sources: [] };
    let changed = false;
    for (let i = 0; i < count; i++) {
      const keyEnd = skipMsgpackValue(item, pos);
      const valueEnd = skipMsgpackValue(item, keyEnd);
      parts.push(item.subarray(pos, keyEnd));
      let replaced: Uint8Array | undefined;
      if (equalBytes(item, pos, keyEnd, INPUTS_KEY)) replaced = this.#members(item, keyEnd, valueEnd, work);
      else if (equalBytes(item, pos, keyEnd, OUTPUT_KEY)) replaced = this.#node(item, keyEnd, valueEnd, work);
      if (replaced !== undefined) changed = true;
      parts.push(replaced ?? item.subarray(keyEnd, valueEnd));
      pos = valueEnd;
    }
    if (!changed) return undefined;
    return { bytes: concat(parts), send: work.send, sources: work.sources };
  }

  /** A map whose members are deduplicated but which itself stays (the record's `inputs`). */
  #members(b: Uint8Array, start: number, end: number, work: Work): Uint8Array | undefined {
    if (end - start < this.#threshold) return undefined;
    const { kind, headerLength, size } = readMsgpackHeader(b, start);
    if (kind !== Kind.Map) return this.#node(b, start, end, work);
    const headerEnd = start + headerLength;
    const children = this.#children(b, headerEnd, size, true, work);
    return children.changed ? concat([b.subarray(start, headerEnd), ...children.pieces]) : undefined;
  }

  /** The value at `start…end` rewritten (a marker when it is large), or `undefined` when unchanged. */
  #node(b: Uint8Array, start: number, end: number, work: Work): Uint8Array | undefined {
    if (end - start < this.#threshold) return undefined;
    // `readMsgpackHeader` shares one object: take its fields before reading children.
    const { kind, headerLength, size } = readMsgpackHeader(b, start);
    const headerEnd = start + headerLength;
    switch (kind) {
      case Kind.Map: {
        const { pieces, length, changed } = this.#children(b, headerEnd, size, true, work);
        if (!changed) return this.#markers.written(b, start, end, work);
        const parts = [b.subarray(start, headerEnd), ...pieces];
        return headerLength + length >= this.#threshold ? this.#markers.plain(parts, work) : concat(parts);
      }
      case Kind.Array: {
        const { pieces, length, changed } = this.#children(b, headerEnd, size, false, work);
        if (headerLength + length < this.#threshold)
          return changed ? concat([b.subarray(start, headerEnd), ...pieces]) : undefined;
        // The items as rewritten, by the rule for a value written whole.
        if (replacementOf(kind, size, length) === Replacement.Chain) return this.#markers.chain(pieces, work);
        return this.#markers.plain(
          changed ? [b.subarray(start, headerEnd), ...pieces] : [b.subarray(start, end)],
          work,
        );
      }
      default:
        // A string, binary data or a scalar, as written.
        return this.#markers.written(b, start, end, work);
    }
  }

  /** The children of a container (a map's keys as they are, its values and an array's items rewritten). */
  #children(
    b: Uint8Array,
    pos: number,
    count: number,
    isMap: boolean,
    work: Work,
  ): { pieces: Uint8Array[]; length: number; changed: boolean } {
    const pieces: Uint8Array[] = [];
    let length = 0;
    let changed = false;
    for (let i = 0; i < count; i++) {
      if (isMap) {
        const keyEnd = skipMsgpackValue(b, pos);
        pieces.push(b.subarray(pos, keyEnd));
        length += keyEnd - pos;
        pos = keyEnd;
      }
      const end = skipMsgpackValue(b, pos);
      const replaced = this.#node(b, pos, end, work);
      if (replaced !== undefined) changed = true;
      const piece = replaced ?? b.subarray(pos, end);
      pieces.push(piece);
      length += piece.byteLength;
      pos = end;
    }
    return { pieces, length, changed };
  }
}

function equalBytes(b: Uint8Array, start: number, end: number, expected: Uint8Array): boolean {
  if (end - start !== expected.byteLength) return false;
  for (let i = 0; i < expected.byteLength; i++) if (b[start + i] !== expected[i]) return false;
  return true;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
