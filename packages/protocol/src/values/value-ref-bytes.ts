/**
 * The msgpack of a {@link ValueRef} marker as a deduplicated record carries
 * it in place of a large value (the SDK writes it over the value's encoded
 * bytes). Two forms are read: the map `{ _weft: 'value', digest }` (SDKs
 * before the compact marker) and the compact `ext` below.
 */

/** The length of a digest (base64url of SHA-256). */
export const DIGEST_LENGTH = 43;

/** The msgpack fixstr of an ASCII string shorter than 32 characters, as byte values. */
export const fixstr = (s: string): number[] => [0xa0 | s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

/**
 * The msgpack extension type of the compact marker: `ext 8` of the digest's
 * 32 raw bytes (`c7 20 57` then the SHA-256), 35 bytes where the map form
 * `{ _weft: 'value', digest }` takes 65. Decoders from `@weft/protocol` give
 * it back as that map (see `decodeMsgpack`), so nothing past the decoder
 * tells the two forms apart.
 */
export const VALUE_REF_EXT_TYPE = 0x57;

/** The raw digest's length inside a compact marker (SHA-256). */
export const DIGEST_BYTES = 32;

/** The head of every compact marker: `ext 8`, its length, its type. */
export const VALUE_REF_EXT_HEAD = Uint8Array.from([0xc7, DIGEST_BYTES, VALUE_REF_EXT_TYPE]);

/** Bytes of an encoded value marker as the SDK writes it (the compact form). */
export const VALUE_REF_BYTES = VALUE_REF_EXT_HEAD.byteLength + DIGEST_BYTES;

/**
 * The msgpack of `valueRef(digest)` in its compact form. Servers from the
 * compact marker on read both forms; older servers read only the map form
 * (`encodeMsgpack(valueRef(digest))`).
 */
export function valueRefBytes(digest: string): Uint8Array {
  const raw = Buffer.from(digest, 'base64url');
  // The round trip refuses what base64url decoding would silently bend (a
  // wrong length, stray characters, unused low bits set).
  if (raw.byteLength !== DIGEST_BYTES || raw.toString('base64url') !== digest)
    throw new RangeError(`"${digest}" is not a value digest (base64url of ${DIGEST_BYTES} bytes)`);
  const out = new Uint8Array(VALUE_REF_BYTES);
  out.set(VALUE_REF_EXT_HEAD, 0);
  out.set(raw, VALUE_REF_EXT_HEAD.byteLength);
  return out;
}

/** The digest a compact marker's payload carries (`decodeMsgpack` makes the marker of it). */
export function digestOfValueRefPayload(payload: Uint8Array): string {
  if (payload.byteLength !== DIGEST_BYTES)
    throw new RangeError(
      `a value marker (msgpack ext ${VALUE_REF_EXT_TYPE}) carries ${DIGEST_BYTES} digest bytes, not ${payload.byteLength}`,
    );
  return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('base64url');
}

/** Bytes both marker forms contain: `_weft` (the map form) and the ext head (the compact form). */
const MAP_FORM_KEY = Buffer.from('_weft');

/**
 * True when msgpack `bytes` may hold a value marker of either form: bytes
 * without one need not be decoded to look for markers (a false positive
 * only costs a decode).
 */
export function mayHoldValueRefs(bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return b.indexOf(MAP_FORM_KEY) !== -1 || b.indexOf(VALUE_REF_EXT_HEAD) !== -1;
}

/** Writes ASCII `s` (a digest, a key) at `offset`, one byte per character. */
export function writeAscii(out: Uint8Array, offset: number, s: string): void {
  for (let i = 0; i < s.length; i++) out[offset + i] = s.charCodeAt(i);
}
