import { digestOfPayload } from './compact-digest.js';
import { DIGEST_BYTES } from './value-ref-bytes.js';

/**
 * A value item on the wire in its compact form (protocol 4): one msgpack ext
 * instead of the map, ~30 B less framing per item (no `type`, `digest`,
 * `bytes`/`prev`/`items` keys; the digests as 32 raw bytes).
 * `decodeMsgpack` gives back the map `{ type: 'value', digest, … }`, so no
 * reader past the decoder tells the forms apart.
 *
 * - {@link VALUE_ITEM_EXT_TYPE} (0x56): the digest's 32 raw bytes, then the
 *   value's msgpack bytes → `{ type: 'value', digest, bytes }`.
 * - {@link ARRAY_VALUE_ITEM_EXT_TYPE} (0x41): the digest's 32 raw bytes, a
 *   flags byte (bit 0: a `prev` follows), `prev`'s 32 raw bytes if flagged,
 *   then each item as a msgpack `bin` up to the end →
 *   `{ type: 'value', digest, prev?, items }`.
 */
export const VALUE_ITEM_EXT_TYPE = 0x56;
export const ARRAY_VALUE_ITEM_EXT_TYPE = 0x41;

/** The flags byte of an array value item: a `prev` digest follows. */
export const ARRAY_ITEM_HAS_PREV = 1;

/** A value item as the decoder gives it back (the `valueItem` schema checks it after). */
export interface DecodedValueItem {
  type: 'value';
  digest: string;
  bytes?: Uint8Array;
  prev?: string;
  items?: Uint8Array[];
}

/** The plain value item a compact one (ext 0x56) carries. */
export function valueItemOfPayload(payload: Uint8Array): DecodedValueItem {
  if (payload.byteLength < DIGEST_BYTES)
    throw new RangeError(
      `a value item (msgpack ext ${VALUE_ITEM_EXT_TYPE}) starts with a ${DIGEST_BYTES}-byte digest; it has ${payload.byteLength} bytes`,
    );
  return {
    type: 'value',
    digest: digestOfPayload(payload.subarray(0, DIGEST_BYTES)),
    bytes: payload.subarray(DIGEST_BYTES),
  };
}

/** The array value item a compact one (ext 0x41) carries. */
export function arrayValueItemOfPayload(payload: Uint8Array): DecodedValueItem {
  const what = `an array value item (msgpack ext ${ARRAY_VALUE_ITEM_EXT_TYPE})`;
  if (payload.byteLength < DIGEST_BYTES + 1)
    throw new RangeError(`${what} starts with a ${DIGEST_BYTES}-byte digest and a flags byte`);
  const item: DecodedValueItem = {
    type: 'value',
    digest: digestOfPayload(payload.subarray(0, DIGEST_BYTES)),
  };
  const flags = payload[DIGEST_BYTES] as number;
  let pos = DIGEST_BYTES + 1;
  if ((flags & ARRAY_ITEM_HAS_PREV) !== 0) {
    item.prev = digestOfPayload(payload.subarray(pos, pos + DIGEST_BYTES));
    pos += DIGEST_BYTES;
  }
  const items: Uint8Array[] = [];
  while (pos < payload.byteLength) {
    const bin = binAt(payload, pos);
    if (bin === undefined)
      throw new RangeError(`${what} holds its items as msgpack bins, whole; the one at byte ${pos} is not`);
    items.push(bin);
    pos = bin.byteOffset - payload.byteOffset + bin.byteLength;
  }
  item.items = items;
  return item;
}

/** The payload of the msgpack `bin` at `b[pos…]`, or undefined when no whole bin starts there. */
function binAt(b: Uint8Array, pos: number): Uint8Array | undefined {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const t = b[pos];
  let head: number;
  let size: number;
  if (t === 0xc4 && pos + 2 <= b.byteLength) [head, size] = [2, view.getUint8(pos + 1)];
  else if (t === 0xc5 && pos + 3 <= b.byteLength) [head, size] = [3, view.getUint16(pos + 1)];
  else if (t === 0xc6 && pos + 5 <= b.byteLength) [head, size] = [5, view.getUint32(pos + 1)];
  else return undefined;
  const end = pos + head + size;
  return end > b.byteLength ? undefined : b.subarray(pos + head, end);
}
