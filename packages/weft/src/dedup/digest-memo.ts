import { digestBytes, nextArrayDigest } from '@weft/protocol';

/** Bytes of values and arrays remembered (copies), at most. */
const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;
/** Arrays remembered for their prefix digests. */
const MAX_CHAINS = 8;

interface RememberedChain {
  /** The items' bytes back to back (a copy: record bytes are reused once delivered). */
  bytes: Buffer;
  /** Where each item ends in `bytes`. */
  ends: number[];
  /** `digests[i]`: the array digest of items 0..i. */
  digests: string[];
}

/**
 * Digests of values seen recently, found again by comparing bytes instead of
 * hashing them: `memcmp` runs an order of magnitude faster than SHA-256, and
 * equal bytes have equal digests, so the answer is exact. The values sent
 * most often — the same system prompt, tools and documents on every call,
 * and a history that only grew — cost a comparison, not a hash.
 *
 * Bounded: at most `maxBytes` of copies (oldest dropped first), and the last
 * {@link MAX_CHAINS} arrays.
 */
export class DigestMemo {
  readonly #maxBytes: number;
  /** Plain values by byte length (a cheap first test), oldest first in `#order`. */
  readonly #plain = new Map<number, { bytes: Buffer; digest: string }[]>();
  readonly #order: { length: number; bytes: Buffer }[] = [];
  #plainBytes = 0;
  #chains: RememberedChain[] = [];

  constructor(maxBytes = DEFAULT_MAX_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** The digest of the value whose bytes are `parts` concatenated (`digestBytes`). */
  plain(parts: readonly Uint8Array[]): string {
    let length = 0;
    for (const part of parts) length += part.byteLength;
    const candidates = this.#plain.get(length);
    if (candidates !== undefined) {
      for (const candidate of candidates) if (equalParts(candidate.bytes, parts)) return candidate.digest;
    }
    const digest = digestBytes(parts);
    if (length * 4 <= this.#maxBytes) {
      const bytes = Buffer.allocUnsafe(length);
      let offset = 0;
      for (const part of parts) {
        bytes.set(part, offset);
        offset += part.byteLength;
      }
      const list = candidates ?? [];
      list.push({ bytes, digest });
      if (candidates === undefined) this.#plain.set(length, list);
      this.#order.push({ length, bytes });
      this.#plainBytes += length;
      while (this.#plainBytes > this.#maxBytes) this.#dropOldest();
    }
    return digest;
  }

  /** The array digest of each prefix of `items` (see `arrayDigest`): those of a remembered prefix are reused. */
  chain(items: readonly Uint8Array[]): string[] {
    let best: RememberedChain | undefined;
    let common = 0;
    for (const chain of this.#chains) {
      const n = commonPrefix(chain, items);
      if (n > common) {
        common = n;
        best = chain;
      }
    }
    // The same array again (the same input messages on every call): nothing to hash or copy.
    if (best !== undefined && common === items.length && best.ends.length === items.length) {
      this.#chains = [...this.#chains.filter((c) => c !== best), best];
      return best.digests;
    }
    const digests: string[] = new Array(items.length);
    let digest = '';
    for (let i = 0; i < items.length; i++) {
      digest = i < common ? (best as RememberedChain).digests[i]! : nextArrayDigest(digest, items[i]!);
      digests[i] = digest;
    }
    this.#remember(items, digests, best, common);
    return digests;
  }

  #remember(
    items: readonly Uint8Array[],
    digests: string[],
    best: RememberedChain | undefined,
    common: number,
  ): void {
    let length = 0;
    for (const item of items) length += item.byteLength;
    if (length * 4 > this.#maxBytes) return;
    // The array extends the one it shares a prefix with: that one is no longer needed.
    if (best !== undefined && common === best.ends.length)
      this.#chains = this.#chains.filter((c) => c !== best);
    const bytes = Buffer.allocUnsafe(length);
    const ends: number[] = new Array(items.length);
    let offset = 0;
    for (let i = 0; i < items.length; i++) {
      bytes.set(items[i]!, offset);
      offset += items[i]!.byteLength;
      ends[i] = offset;
    }
    this.#chains.push({ bytes, ends, digests });
    if (this.#chains.length > MAX_CHAINS) this.#chains.shift();
  }

  #dropOldest(): void {
    const oldest = this.#order.shift();
    if (oldest === undefined) return;
    this.#plainBytes -= oldest.length;
    const list = this.#plain.get(oldest.length);
    if (list === undefined) return;
    const rest = list.filter((entry) => entry.bytes !== oldest.bytes);
    if (rest.length === 0) this.#plain.delete(oldest.length);
    else this.#plain.set(oldest.length, rest);
  }
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
function commonPrefix(chain: RememberedChain, items: readonly Uint8Array[]): number {
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
