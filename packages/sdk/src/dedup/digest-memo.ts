import { digestBytes, nextArrayDigest, valueRefBytes } from '@weft/protocol';
import { StringMemo } from './string-memo.js';

/** Bytes of values remembered (copies), at most; as much again for arrays. */
const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;
/**
 * Arrays remembered for their prefix digests: one per conversation a
 * process carries on at once (its history grows by a few messages per call).
 */
const MAX_CHAINS = 64;

/**
 * A value's digest and a stable copy of its bytes (record bytes are reused
 * once delivered, and the safe encoder writes a marker over a value it
 * replaced): what a record keeps to send the value again. Never written to.
 */
export interface PlainEntry {
  readonly kind: 'plain';
  readonly digest: string;
  readonly bytes: Buffer;
  /** The value's marker (`valueRefBytes(digest)`), made once. */
  readonly marker: Uint8Array;
}

/** An array's items as one stable copy, and the digest of each prefix. */
export interface ChainEntry {
  readonly kind: 'array';
  /** The items' bytes back to back. */
  readonly bytes: Buffer;
  /** Where each item ends in `bytes`. */
  readonly ends: readonly number[];
  /** `digests[i]`: the array digest of items 0..i. */
  readonly digests: readonly string[];
  /** The whole array's marker, made once. */
  readonly marker: Uint8Array;
}

/**
 * Remembered values of one fingerprint (see {@link bytesFingerprint}) kept
 * for comparison, at most: the newest. Values of one shape (an LLM reply of
 * a fixed-size text, whose ids differ) share a length and often a
 * fingerprint; without a bound every new one was compared with each of them
 * (thousands, 60 % of a 1 KB agent step's CPU once the memo was full).
 */
const MAX_SAME_FINGERPRINT = 4;

/** Bytes at each end of a value, and spread over it, that its fingerprint reads. */
const FINGERPRINT_EDGE = 32;
const FINGERPRINT_SAMPLES = 32;

/** Characters of strings remembered by identity (see {@link DigestMemo.string}), at most. */
const MAX_STRING_CHARS = 8 * 1024 * 1024;

/** Items `0…count-1` of a chain entry, as views of its bytes. */
export function chainItems(entry: ChainEntry, count = entry.ends.length): Uint8Array[] {
  const items: Uint8Array[] = new Array(count);
  let start = 0;
  for (let i = 0; i < count; i++) {
    items[i] = entry.bytes.subarray(start, entry.ends[i]);
    start = entry.ends[i]!;
  }
  return items;
}

/**
 * Digests of values seen recently, found again by comparing bytes instead of
 * hashing them: `memcmp` runs an order of magnitude faster than SHA-256, and
 * equal bytes have equal digests, so the answer is exact. The values sent
 * most often — the same system prompt, tools and documents on every call,
 * and a history that only grew — cost a comparison, not a hash.
 *
 * Bounded: at most `maxBytes` of copies of values and as much of arrays
 * (least recently used dropped first), and {@link MAX_CHAINS} arrays.
 */
export class DigestMemo {
  readonly #maxBytes: number;
  /** Plain values by fingerprint (a cheap first test), oldest first in `#order`. */
  readonly #plain = new Map<number, PlainEntry[]>();
  readonly #order: { key: number; bytes: Buffer }[] = [];
  #plainBytes = 0;
  /** Arrays, least recently used first (a Set keeps insertion order; a use re-inserts). */
  readonly #chains = new Set<ChainEntry>();
  /** The same arrays by item count and byte length: the same array again is found without a scan. */
  readonly #chainsBySize = new Map<string, ChainEntry[]>();
  #chainBytes = 0;
  /** Large strings, found by the string itself (see {@link StringMemo}). */
  readonly #strings = new StringMemo<PlainEntry>(MAX_STRING_CHARS, MAX_STRING_CHARS / 4);

  constructor(maxBytes = DEFAULT_MAX_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** The digest of the value whose bytes are `parts` concatenated (`digestBytes`), and a stable copy of them. */
  plain(parts: readonly Uint8Array[]): PlainEntry {
    let length = 0;
    for (const part of parts) length += part.byteLength;
    const key = bytesFingerprint(parts, length);
    const candidates = this.#plain.get(key);
    if (candidates !== undefined) {
      for (const candidate of candidates)
        if (candidate.bytes.byteLength === length && equalParts(candidate.bytes, parts)) return candidate;
    }
    const bytes = Buffer.allocUnsafe(length);
    let offset = 0;
    for (const part of parts) {
      bytes.set(part, offset);
      offset += part.byteLength;
    }
    const digest = digestBytes(bytes);
    const entry: PlainEntry = { kind: 'plain', digest, bytes, marker: valueRefBytes(digest) };
    if (length * 4 <= this.#maxBytes) {
      const list = candidates ?? [];
      list.push(entry);
      // The oldest of the fingerprint leaves the comparisons (its bytes stay counted until `#order` drops them).
      if (list.length > MAX_SAME_FINGERPRINT) list.shift();
      if (candidates === undefined) this.#plain.set(key, list);
      this.#order.push({ key, bytes });
      this.#plainBytes += length;
      while (this.#plainBytes > this.#maxBytes) this.#dropOldest();
    }
    return entry;
  }

  /**
   * The entry of a large string seen recently, found by the string itself:
   * no bytes to write, compare or hash. Its `bytes` are the string's msgpack
   * with the smallest header (the form strings are digested in).
   */
  string(s: string): PlainEntry | undefined {
    return this.#strings.get(s);
  }

  /** Remembers `entry` as the string `s`'s (see {@link string}). */
  rememberString(s: string, entry: PlainEntry): void {
    this.#strings.set(s, entry);
  }

  /** The array digest of each prefix of `items` (see `arrayDigest`): those of a remembered prefix are reused. */
  chain(items: readonly Uint8Array[]): ChainEntry {
    let length = 0;
    for (const item of items) length += item.byteLength;
    const sizeKey = `${items.length}:${length}`;
    // The same array again (the same input messages on every call): nothing to hash or copy.
    for (const entry of this.#chainsBySize.get(sizeKey) ?? []) {
      if (commonPrefix(entry, items) === items.length) {
        this.#chains.delete(entry);
        this.#chains.add(entry);
        return entry;
      }
    }
    let best: ChainEntry | undefined;
    let common = 0;
    for (const chain of this.#chains) {
      const n = commonPrefix(chain, items);
      if (n > common) {
        common = n;
        best = chain;
      }
    }
    const digests: string[] = new Array(items.length);
    let digest = '';
    for (let i = 0; i < items.length; i++) {
      digest = i < common ? (best as ChainEntry).digests[i]! : nextArrayDigest(digest, items[i]!);
      digests[i] = digest;
    }
    const bytes = Buffer.allocUnsafe(length);
    const ends: number[] = new Array(items.length);
    let offset = 0;
    for (let i = 0; i < items.length; i++) {
      bytes.set(items[i]!, offset);
      offset += items[i]!.byteLength;
      ends[i] = offset;
    }
    const entry: ChainEntry = { kind: 'array', bytes, ends, digests, marker: valueRefBytes(digest) };
    if (length * 4 <= this.#maxBytes) {
      // The array extends the one it shares a prefix with: that one is no longer needed.
      if (best !== undefined && common === best.ends.length) this.#forgetChain(best);
      this.#chains.add(entry);
      const same = this.#chainsBySize.get(sizeKey);
      if (same === undefined) this.#chainsBySize.set(sizeKey, [entry]);
      else same.push(entry);
      this.#chainBytes += length;
      while (this.#chains.size > MAX_CHAINS || this.#chainBytes > this.#maxBytes) {
        this.#forgetChain(this.#chains.values().next().value as ChainEntry);
      }
    }
    return entry;
  }

  #forgetChain(entry: ChainEntry): void {
    this.#chains.delete(entry);
    this.#chainBytes -= entry.bytes.byteLength;
    const sizeKey = `${entry.ends.length}:${entry.bytes.byteLength}`;
    const rest = (this.#chainsBySize.get(sizeKey) ?? []).filter((e) => e !== entry);
    if (rest.length === 0) this.#chainsBySize.delete(sizeKey);
    else this.#chainsBySize.set(sizeKey, rest);
  }

  #dropOldest(): void {
    const oldest = this.#order.shift();
    if (oldest === undefined) return;
    this.#plainBytes -= oldest.bytes.byteLength;
    const list = this.#plain.get(oldest.key);
    if (list === undefined) return;
    const rest = list.filter((entry) => entry.bytes !== oldest.bytes);
    if (rest.length === 0) this.#plain.delete(oldest.key);
    else if (rest.length < list.length) this.#plain.set(oldest.key, rest);
  }
}

/**
 * The length of `parts` concatenated (`length` bytes) mixed with its first
 * and last {@link FINGERPRINT_EDGE} bytes (where a record's ids and a
 * template's variable tail sit) and {@link FINGERPRINT_SAMPLES} spread over
 * it: equal bytes have equal fingerprints, and values of one shape mostly
 * differ.
 */
function bytesFingerprint(parts: readonly Uint8Array[], length: number): number {
  let h = length | 0;
  const edge = Math.min(FINGERPRINT_EDGE, length);
  for (let i = 0; i < edge; i++) h = (Math.imul(h, 31) + byteAt(parts, i)) | 0;
  for (let i = 1; i <= edge; i++) h = (Math.imul(h, 31) + byteAt(parts, length - i)) | 0;
  for (let i = 1; i <= FINGERPRINT_SAMPLES && length > 0; i++)
    h = (Math.imul(h, 31) + byteAt(parts, Math.floor((i * length) / (FINGERPRINT_SAMPLES + 1)))) | 0;
  return h;
}

/** Byte `i` of `parts` concatenated (a value comes as one part, or a header and a payload). */
function byteAt(parts: readonly Uint8Array[], i: number): number {
  for (const part of parts) {
    if (i < part.byteLength) return part[i] as number;
    i -= part.byteLength;
  }
  return 0;
}

/** Whether `bytes` equals `parts` concatenated (same total length is known). */
function equalParts(bytes: Buffer, parts: readonly Uint8Array[]): boolean {
  let offset = 0;
  for (const part of parts) {
    if (bytes.compare(part, 0, part.byteLength, offset, offset + part.byteLength) !== 0) return false;
    offset += part.byteLength;
  }
  return true;
}

/** How many leading items of `items` equal the remembered chain's. */
function commonPrefix(chain: ChainEntry, items: readonly Uint8Array[]): number {
  const n = Math.min(chain.ends.length, items.length);
  let start = 0;
  for (let i = 0; i < n; i++) {
    const item = items[i]!;
    const end = chain.ends[i]!;
    if (end - start !== item.byteLength || chain.bytes.compare(item, 0, item.byteLength, start, end) !== 0)
      return i;
    start = end;
  }
  return n;
}
