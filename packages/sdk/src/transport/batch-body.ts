import { encodeMsgpack, msgpackArrayHeader } from '@weft/protocol';

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
  const header = msgpackArrayHeader(items.length);
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

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
