import { MsgpackKind, msgpackStrHeader, readMsgpackHeader, skipMsgpackValue } from '@weft/protocol';
import { type ChainEntry, chainItems, DigestMemo, type PlainEntry } from './digest-memo.js';
import type { KnownValues } from './known-values.js';
import { arrayValueItem, plainValueItem, type ValueSource } from './value-item.js';

/** The values one record refers to, and the value items to send before it. */
export interface RecordValues {
  /** `value` batch items: the values the server is not known to have. */
  send: { digest: string; bytes: Uint8Array }[];
  /** Every value the record refers to, to send again if the server says it lacks one. */
  sources: ValueSource[];
}

/**
 * Average encoded bytes per item from which a large array is sent as a
 * chain (only its new items after a prefix already delivered) instead of
 * whole: one hash per item buys sending a growing chat history as its new
 * messages only; an array of many tiny items (an embedding) is hashed once
 * as a whole instead.
 */
export const MIN_CHAIN_ITEM_BYTES = 64;

/** How a large finished value is content-addressed (see {@link replacementOf}). */
export const Replacement = {
  /** A string: digested with the smallest str header, so both encoders' forms of one text agree. */
  String: 0,
  /** An array of sizeable items: a chain, so a grown array is sent as its new items. */
  Chain: 1,
  /** Anything else: its bytes as they are. */
  Plain: 2,
} as const;
export type Replacement = (typeof Replacement)[keyof typeof Replacement];

/**
 * The one rule for how a large value is replaced, used by both ways a record
 * is deduplicated: `kind` and `size` as `readMsgpackHeader` gives them,
 * `payloadBytes` the bytes after the header (an array's items, as written).
 */
export function replacementOf(kind: MsgpackKind, size: number, payloadBytes: number): Replacement {
  if (kind === MsgpackKind.Str) return Replacement.String;
  if (kind === MsgpackKind.Array && size >= 2 && payloadBytes / size >= MIN_CHAIN_ITEM_BYTES)
    return Replacement.Chain;
  return Replacement.Plain;
}

/**
 * The one rule for replacing a large value by its marker, shared by both
 * ways a record is deduplicated (as the safe encoder writes it, and over an
 * encoded record): digest the value (from {@link DigestMemo} when its bytes
 * or its string were seen recently), note it as a source of the record, and
 * queue its value item unless this client already delivered it.
 */
export class ValueMarkers {
  /** Encoded size from which a value is replaced. */
  readonly thresholdBytes: number;
  readonly #known: KnownValues;
  readonly #memo = new DigestMemo();

  constructor(thresholdBytes: number, known: KnownValues) {
    this.thresholdBytes = thresholdBytes;
    this.#known = known;
  }

  /**
   * The marker for the value just written at `b[start…end)` whose own large
   * values were already replaced, or `undefined` when it stays inline
   * (smaller than the threshold). `s`: the string it is, when it is one
   * (remembered, so the next record holding it skips writing it).
   */
  written(b: Uint8Array, start: number, end: number, work: RecordValues, s?: string): Uint8Array | undefined {
    if (end - start < this.thresholdBytes) return undefined;
    // `readMsgpackHeader` shares one object: take its fields before reading further.
    const { kind, headerLength, size } = readMsgpackHeader(b, start);
    const headerEnd = start + headerLength;
    switch (replacementOf(kind, size, end - headerEnd)) {
      case Replacement.String: {
        const entry = this.#memo.plain([msgpackStrHeader(end - headerEnd), b.subarray(headerEnd, end)]);
        if (s !== undefined) this.#memo.rememberString(s, entry);
        return this.#plain(entry, work);
      }
      case Replacement.Chain: {
        const items: Uint8Array[] = new Array(size);
        let pos = headerEnd;
        for (let i = 0; i < size; i++) {
          const itemEnd = skipMsgpackValue(b, pos);
          items[i] = b.subarray(pos, itemEnd);
          pos = itemEnd;
        }
        return this.chain(items, work);
      }
      default:
        return this.plain([b.subarray(start, end)], work);
    }
  }

  /** The marker of a string seen recently, without writing it; `undefined` when it is not remembered. */
  string(s: string, work: RecordValues): Uint8Array | undefined {
    const entry = this.#memo.string(s);
    return entry === undefined ? undefined : this.#plain(entry, work);
  }

  /** The marker of the value whose bytes are `parts` concatenated. */
  plain(parts: readonly Uint8Array[], work: RecordValues): Uint8Array {
    return this.#plain(this.#memo.plain(parts), work);
  }

  /** The marker of an array sent as the items after its longest prefix the server is known to have. */
  chain(items: readonly Uint8Array[], work: RecordValues): Uint8Array {
    return this.#chain(this.#memo.chain(items), work);
  }

  /**
   * `source` (noted for an earlier record, see `WrittenValueHook.replay`) is
   * referred to by this record too: noted as a source, its value item queued
   * unless this client already delivered it, as if it were written anew.
   */
  again(source: ValueSource, work: RecordValues): void {
    if (source.kind === 'plain') this.#plain(source, work);
    else this.#chain(source, work);
  }

  #chain(entry: ChainEntry, work: RecordValues): Uint8Array {
    const { digests } = entry;
    const digest = digests.at(-1) as string;
    work.sources.push(entry);
    if (!this.#known.has(digest)) {
      let prefix = digests.length - 2;
      while (prefix >= 0 && !this.#known.has(digests[prefix]!)) prefix--;
      work.send.push({
        digest,
        bytes: arrayValueItem(
          digest,
          prefix >= 0 ? digests[prefix] : undefined,
          chainItems(entry).slice(prefix + 1),
        ),
      });
      this.#known.add(digest);
    }
    return entry.marker;
  }

  #plain(entry: PlainEntry, work: RecordValues): Uint8Array {
    const { digest } = entry;
    work.sources.push(entry);
    if (!this.#known.has(digest)) {
      work.send.push({ digest, bytes: plainValueItem(digest, [entry.bytes]) });
      this.#known.add(digest);
    }
    return entry.marker;
  }

  /** Undoes the value items of `work` that will not be sent (its record was encoded another way). */
  forget(work: RecordValues): void {
    for (const value of work.send) this.#known.forget(value.digest);
  }
}
