/**
 * A call id on the wire in its compact form: msgpack `fixext 16` of type 85
 * (`d8 55`, then the UUID's 16 bytes), 18 bytes where the 36-character
 * string takes 38. `decodeMsgpack` gives back the lowercase string, so no
 * reader past the decoder tells the forms apart. Only a lowercase canonical
 * UUID is written this way (the form it decodes to); any other id stays a
 * string.
 */
export const CALL_ID_EXT_TYPE = 0x55;

/** Bytes of a compact call id. */
export const COMPACT_CALL_ID_BYTES = 18;

/** Characters of a call id as text. */
const ID_CHARS = 36;
/** Each byte value's two lowercase hex digits. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Each ASCII code's value as a lowercase hex digit, or -1. */
const HEX_VALUE = Int8Array.from({ length: 128 }, (_, c) =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x61 + 10 : -1,
);

/** The value of lowercase hex digit `c` (a UTF-16 code unit), or -1. */
function hexValue(c: number): number {
  return c < 128 ? (HEX_VALUE[c] as number) : -1;
}

/**
 * Writes the compact form of call id `id` to `out[offset…]` (18 bytes) when
 * it is a lowercase canonical UUID, and returns true; otherwise returns false,
 * and what it wrote to `out[offset…offset + 18)` is to be ignored. The record
 * encoder writes a record's ids with it as it writes the record's head (in
 * one pass: checking and writing together).
 */
export function writeCompactCallId(id: string, out: Uint8Array, offset: number): boolean {
  if (id.length !== ID_CHARS) return false;
  out[offset] = 0xd8;
  out[offset + 1] = CALL_ID_EXT_TYPE;
  let n = offset + 2;
  for (let i = 0; i < ID_CHARS; i += 2) {
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (id.charCodeAt(i) !== 0x2d) return false;
      i++;
    }
    const high = hexValue(id.charCodeAt(i));
    const low = hexValue(id.charCodeAt(i + 1));
    if ((high | low) < 0) return false;
    out[n++] = (high << 4) | low;
  }
  return true;
}

/** The id a compact call id's payload carries (the lowercase 8-4-4-4-12 text). */
export function callIdOfPayload(payload: Uint8Array): string {
  if (payload.byteLength !== 16)
    throw new RangeError(
      `a call id (msgpack ext ${CALL_ID_EXT_TYPE}) carries 16 bytes, not ${payload.byteLength}`,
    );
  let s = '';
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) s += '-';
    s += HEX[payload[i] as number];
  }
  return s;
}
