import { encodeMsgpack } from '@weft/protocol';

/**
 * The bytes of a `callBatch` body that precede its items, for one project:
 *
 * ```
 * 0x82                      map of 2
 *   "project"  <project>    key, value
 *   "items"                 key; the array header and the items follow
 * ```
 *
 * Computed once per project and reused for every batch.
 */
export function batchBodyPrefix(project: string): Uint8Array {
  return concat([
    Uint8Array.of(0x82),
    encodeMsgpack('project'),
    encodeMsgpack(project),
    encodeMsgpack('items'),
  ]);
}

/** The msgpack header of an array of `count` elements (fixarray, array 16 or array 32). */
export function arrayHeader(count: number): Uint8Array {
  if (count < 16) return Uint8Array.of(0x90 | count);
  if (count < 0x1_0000) return Uint8Array.of(0xdc, count >>> 8, count & 0xff);
  return Uint8Array.of(0xdd, count >>> 24, (count >>> 16) & 0xff, (count >>> 8) & 0xff, count & 0xff);
}

/** Bytes a batch body adds around its items, at most: the prefix and an array 32 header. */
export function batchOverheadBytes(prefix: Uint8Array): number {
  return prefix.byteLength + 5;
}

/**
 * Assembles the msgpack `callBatch` body `{ project, items }` by concatenation:
 * the prefix, an array header, then each item's bytes as they are. Items are
 * encoded exactly once, by the pipeline; a retry or a split re-assembles but
 * never re-encodes. `memory` gives the bytes to write into (by default a new
 * array of exactly `length` bytes).
 */
export function encodeBatchBody(
  prefix: Uint8Array,
  items: readonly Uint8Array[],
  memory: (length: number) => Uint8Array = (length) => new Uint8Array(length),
): Uint8Array {
  const header = arrayHeader(items.length);
  let length = prefix.byteLength + header.byteLength;
  for (const item of items) length += item.byteLength;
  const body = memory(length);
  body.set(prefix, 0);
  body.set(header, prefix.byteLength);
  let offset = prefix.byteLength + header.byteLength;
  for (const item of items) {
    body.set(item, offset);
    offset += item.byteLength;
  }
  return body;
}

/**
 * Items at least this large travel as their own part of a body instead of
 * being copied into it. A part costs a socket write (undici writes an
 * iterable body chunk by chunk), worth it only when it saves copying tens of
 * kilobytes; smaller items are copied into one buffer, so a batch of 1 KB
 * records is still a single write.
 */
export const OWN_PART_BYTES = 32 * 1024;

/** A body as parts to write in order: runs of small items copied into one buffer, large items as they are. */
export interface BodyParts {
  readonly parts: readonly Uint8Array[];
  /** Total bytes of the parts (the `content-length`). */
  readonly length: number;
  /** The one buffer the runs were copied into (from `memory`), to give back once the body is sent. */
  readonly copied: Uint8Array;
}

/**
 * The `callBatch` body `{ project, items }` of {@link encodeBatchBody}, without
 * copying large items: the prefix, the array header and the small items are
 * copied into one buffer from `memory`, in runs; every item of
 * {@link OWN_PART_BYTES} or more is a part of its own, so encoded bytes reach
 * the socket with no copy after encoding.
 *
 * ```
 * items:  [s1 s2] [L1] [s3] [L2 L3]         (s small, L large)
 * copied: |prefix hdr s1 s2|s3|
 * parts:  [prefix hdr s1 s2] [L1] [s3] [L2] [L3]
 * ```
 */
export function batchBodyParts(
  prefix: Uint8Array,
  items: readonly Uint8Array[],
  memory: (length: number) => Uint8Array = (length) => new Uint8Array(length),
): BodyParts {
  const header = arrayHeader(items.length);
  let small = prefix.byteLength + header.byteLength;
  let length = small;
  for (const item of items) {
    length += item.byteLength;
    if (item.byteLength < OWN_PART_BYTES) small += item.byteLength;
  }
  const copied = memory(small);
  copied.set(prefix, 0);
  copied.set(header, prefix.byteLength);
  let offset = prefix.byteLength + header.byteLength;
  let runStart = 0;
  const parts: Uint8Array[] = [];
  for (const item of items) {
    if (item.byteLength < OWN_PART_BYTES) {
      copied.set(item, offset);
      offset += item.byteLength;
      continue;
    }
    if (offset > runStart) parts.push(copied.subarray(runStart, offset));
    runStart = offset;
    parts.push(item);
  }
  if (offset > runStart) parts.push(copied.subarray(runStart, offset));
  return { parts, length, copied };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
