/**
 * The smallest msgpack header of a str, a bin or an array, as bytes: for
 * code that assembles a message from parts already encoded (the SDK's
 * deduplicator, the server's stored arrays). The hot writer,
 * {@link MsgpackWriter}, writes headers in place instead.
 */

/** The smallest str header for a payload of `length` bytes. */
export function msgpackStrHeader(length: number): Uint8Array {
  if (length < 32) return Uint8Array.of(0xa0 | length);
  if (length < 0x100) return Uint8Array.of(0xd9, length);
  if (length < 0x10000) return Uint8Array.of(0xda, length >>> 8, length & 0xff);
  return Uint8Array.of(0xdb, ...be32(length));
}

/** The smallest bin header for a payload of `length` bytes. */
export function msgpackBinHeader(length: number): Uint8Array {
  if (length < 0x100) return Uint8Array.of(0xc4, length);
  if (length < 0x10000) return Uint8Array.of(0xc5, length >>> 8, length & 0xff);
  return Uint8Array.of(0xc6, ...be32(length));
}

/** The smallest array header for `count` items. */
export function msgpackArrayHeader(count: number): Uint8Array {
  if (count < 16) return Uint8Array.of(0x90 | count);
  if (count < 0x10000) return Uint8Array.of(0xdc, count >>> 8, count & 0xff);
  return Uint8Array.of(0xdd, ...be32(count));
}

function be32(n: number): number[] {
  return [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

/** The smallest ext header (never a fixext) of `type` for a payload of `length` bytes. */
export function msgpackExtHeader(type: number, length: number): Uint8Array {
  if (length < 0x100) return Uint8Array.of(0xc7, length, type);
  if (length < 0x10000) return Uint8Array.of(0xc8, length >>> 8, length & 0xff, type);
  return Uint8Array.of(0xc9, ...be32(length), type);
}
