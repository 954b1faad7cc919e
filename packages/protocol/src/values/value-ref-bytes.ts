/**
 * The msgpack of a {@link ValueRef} marker, `{ _weft: 'value', digest }`,
 * byte for byte as a deduplicated record carries it in place of a large
 * value (the SDK writes it over the value's encoded bytes).
 */

/** The length of a digest (base64url of SHA-256). */
export const DIGEST_LENGTH = 43;

/** The msgpack fixstr of an ASCII string shorter than 32 characters, as byte values. */
export const fixstr = (s: string): number[] => [0xa0 | s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

/** `{ _weft: 'value', digest: ` … (then str8 header and the digest). */
const VALUE_REF_HEAD = Uint8Array.from([
  0x82,
  ...fixstr('_weft'),
  ...fixstr('value'),
  ...fixstr('digest'),
  0xd9,
  DIGEST_LENGTH,
]);

/** Bytes of an encoded value marker. */
export const VALUE_REF_BYTES = VALUE_REF_HEAD.byteLength + DIGEST_LENGTH;

/** The msgpack of `valueRef(digest)`. */
export function valueRefBytes(digest: string): Uint8Array {
  const out = new Uint8Array(VALUE_REF_BYTES);
  out.set(VALUE_REF_HEAD, 0);
  writeAscii(out, VALUE_REF_HEAD.byteLength, digest);
  return out;
}

/** Writes ASCII `s` (a digest, a key) at `offset`, one byte per character. */
export function writeAscii(out: Uint8Array, offset: number, s: string): void {
  for (let i = 0; i < s.length; i++) out[offset + i] = s.charCodeAt(i);
}
