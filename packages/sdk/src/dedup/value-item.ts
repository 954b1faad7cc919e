import {
  ARRAY_ITEM_HAS_PREV,
  ARRAY_VALUE_ITEM_EXT_TYPE,
  DIGEST_BYTES,
  msgpackBinHeader,
  msgpackExtHeader,
  VALUE_ITEM_EXT_TYPE,
  writeRawDigest,
} from '@weft/protocol';
import { type ChainEntry, chainItems, type PlainEntry } from './digest-memo.js';

/**
 * The bytes the deduplicator writes: the marker left in a call record, and
 * the `value` batch items (see `valueItem` in `@weft/protocol`). Written by
 * concatenation, so a value's bytes travel exactly as the record held them.
 */

/**
 * What a record refers to, kept until the record is delivered so any of it
 * can be sent again: a value's digest and bytes, or an array's items and the
 * digest of each prefix (`digests[i]` covers items 0..i). Both are the
 * {@link DigestMemo}'s stable copies, shared, never written to.
 */
export type ValueSource = PlainEntry | ChainEntry;

/** The digest a source stands for in its record. */
export function sourceDigest(source: ValueSource): string {
  return source.kind === 'plain' ? source.digest : (source.digests.at(-1) as string);
}

/** Whether `source` can deliver `digest` (see {@link valueItemFor}), without writing the item. */
export function sourceHolds(source: ValueSource, digest: string): boolean {
  return source.kind === 'plain' ? source.digest === digest : source.digests.includes(digest);
}

/**
 * The value item that delivers `digest` from `source`, or undefined when the
 * source does not hold it. An array prefix is sent whole (no `prev`): the
 * server may have lost every earlier part of the chain.
 */
export function valueItemFor(source: ValueSource, digest: string): Uint8Array | undefined {
  if (source.kind === 'plain')
    return source.digest === digest ? plainValueItem(digest, [source.bytes]) : undefined;
  const i = source.digests.lastIndexOf(digest);
  return i === -1 ? undefined : arrayValueItem(digest, undefined, chainItems(source, i + 1));
}

/**
 * `{ type: 'value', digest, bytes }` with the value's bytes given as parts, in
 * its compact form: ext 0x56 of the raw digest and the bytes (protocol 4; see
 * `VALUE_ITEM_EXT_TYPE` in @weft/protocol).
 */
export function plainValueItem(digest: string, parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const payload = DIGEST_BYTES + length;
  const head = msgpackExtHeader(VALUE_ITEM_EXT_TYPE, payload);
  const w = new Writer(head.byteLength + payload);
  w.bytes(head);
  w.digest(digest);
  for (const part of parts) w.bytes(part);
  return w.done();
}

/**
 * `{ type: 'value', digest, prev?, items }`: an array as the items after
 * `prev`, in its compact form: ext 0x41 of the raw digest, a flags byte, the
 * raw `prev` if any, and each item as a bin (protocol 4; see
 * `ARRAY_VALUE_ITEM_EXT_TYPE` in @weft/protocol).
 */
export function arrayValueItem(
  digest: string,
  prev: string | undefined,
  items: readonly Uint8Array[],
): Uint8Array {
  let payload = DIGEST_BYTES + 1 + (prev === undefined ? 0 : DIGEST_BYTES);
  for (const item of items) payload += msgpackBinHeader(item.byteLength).byteLength + item.byteLength;
  const head = msgpackExtHeader(ARRAY_VALUE_ITEM_EXT_TYPE, payload);
  const w = new Writer(head.byteLength + payload);
  w.bytes(head);
  w.digest(digest);
  w.bytes(prev === undefined ? NO_PREV : HAS_PREV);
  if (prev !== undefined) w.digest(prev);
  for (const item of items) {
    w.bytes(msgpackBinHeader(item.byteLength));
    w.bytes(item);
  }
  return w.done();
}

const NO_PREV = Uint8Array.of(0);
const HAS_PREV = Uint8Array.of(ARRAY_ITEM_HAS_PREV);

class Writer {
  readonly #out: Uint8Array;
  #pos = 0;

  constructor(capacity: number) {
    this.#out = new Uint8Array(capacity);
  }

  bytes(b: Uint8Array): void {
    this.#out.set(b, this.#pos);
    this.#pos += b.byteLength;
  }

  /** A digest's 32 raw bytes. */
  digest(digest: string): void {
    writeRawDigest(this.#out, this.#pos, digest);
    this.#pos += DIGEST_BYTES;
  }

  done(): Uint8Array {
    return this.#out.subarray(0, this.#pos);
  }
}
