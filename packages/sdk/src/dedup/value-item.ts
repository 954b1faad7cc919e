import {
  COMPACT_DIGEST_BYTES,
  fixstr,
  msgpackArrayHeader,
  msgpackBinHeader,
  writeCompactDigest,
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

/** `{ type: 'value', digest, bytes }` with the value's bytes given as parts. */
export function plainValueItem(digest: string, parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  // The map header byte, the head, the digest, the key, a bin32 header at most, the bytes.
  const w = new Writer(ITEM_HEAD_3.byteLength + COMPACT_DIGEST_BYTES + BYTES_KEY.byteLength + 5 + length);
  w.bytes(ITEM_HEAD_3);
  w.digest(digest);
  w.bytes(BYTES_KEY);
  w.binHeader(length);
  for (const part of parts) w.bytes(part);
  return w.done();
}

/** `{ type: 'value', digest, prev?, items }`: an array as the items after `prev`. */
export function arrayValueItem(
  digest: string,
  prev: string | undefined,
  items: readonly Uint8Array[],
): Uint8Array {
  let length = 0;
  for (const item of items) length += 5 + item.byteLength;
  const w = new Writer(
    ITEM_HEAD_4.byteLength +
      2 * COMPACT_DIGEST_BYTES +
      PREV_KEY.byteLength +
      ITEMS_KEY.byteLength +
      5 +
      length,
  );
  w.bytes(prev === undefined ? ITEM_HEAD_3 : ITEM_HEAD_4);
  w.digest(digest);
  if (prev !== undefined) {
    w.bytes(PREV_KEY);
    w.digest(prev);
  }
  w.bytes(ITEMS_KEY);
  w.arrayHeader(items.length);
  for (const item of items) {
    w.binHeader(item.byteLength);
    w.bytes(item);
  }
  return w.done();
}

/** `type: 'value', digest:` after a map header. */
const ITEM_HEAD = Uint8Array.from([...fixstr('type'), ...fixstr('value'), ...fixstr('digest')]);
const ITEM_HEAD_3 = Uint8Array.from([0x83, ...ITEM_HEAD]);
const ITEM_HEAD_4 = Uint8Array.from([0x84, ...ITEM_HEAD]);
const BYTES_KEY = Uint8Array.from(fixstr('bytes'));
const PREV_KEY = Uint8Array.from(fixstr('prev'));
const ITEMS_KEY = Uint8Array.from(fixstr('items'));

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

  /** A digest in its compact form (ext 0x44 of the 32 raw bytes; servers of protocol 3 on read it). */
  digest(digest: string): void {
    writeCompactDigest(this.#out, this.#pos, digest);
    this.#pos += COMPACT_DIGEST_BYTES;
  }

  binHeader(n: number): void {
    this.bytes(msgpackBinHeader(n));
  }

  arrayHeader(n: number): void {
    this.bytes(msgpackArrayHeader(n));
  }

  done(): Uint8Array {
    return this.#out.subarray(0, this.#pos);
  }
}
