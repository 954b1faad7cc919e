/** The marker a deduplicated record holds in place of a large value: `{ _weft: 'value', digest }`. */

const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));
export const fixstr = (s: string): number[] => [0xa0 | s.length, ...ascii(s)];
export const DIGEST_LENGTH = 43;

/** `{ _weft: 'value', digest: ` … (then str8 header and the digest). */
const MARKER_HEAD = Uint8Array.from([
  0x82,
  ...fixstr('_weft'),
  ...fixstr('value'),
  ...fixstr('digest'),
  0xd9,
  DIGEST_LENGTH,
]);
/** Bytes of a marker. */
export const MARKER_BYTES = MARKER_HEAD.byteLength + DIGEST_LENGTH;

/** The msgpack of `{ _weft: 'value', digest }`. */
export function markerBytes(digest: string): Uint8Array {
  const out = new Uint8Array(MARKER_BYTES);
  out.set(MARKER_HEAD, 0);
  writeAscii(out, MARKER_HEAD.byteLength, digest);
  return out;
}

export function writeAscii(out: Uint8Array, offset: number, s: string): void {
  for (let i = 0; i < s.length; i++) out[offset + i] = s.charCodeAt(i);
}
