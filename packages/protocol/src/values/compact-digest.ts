import { DIGEST_BYTES } from './value-ref-bytes.js';

/**
 * A value item's `digest` and `prev` on the wire in their compact form:
 * msgpack `ext 8` of type 0x44 of the SHA-256's 32 raw bytes (`c7 20 44`,
 * then the digest), 35 bytes where the 43-character base64url string takes
 * 45. `decodeMsgpack` gives back the base64url string, so no reader past the
 * decoder tells the forms apart. Servers read it from protocol 3.
 */
export const DIGEST_EXT_TYPE = 0x44;

/** The head of every compact digest: `ext 8`, its length, its type. */
const DIGEST_EXT_HEAD = Uint8Array.from([0xc7, DIGEST_BYTES, DIGEST_EXT_TYPE]);

/** Bytes of a compact digest. */
export const COMPACT_DIGEST_BYTES = DIGEST_EXT_HEAD.byteLength + DIGEST_BYTES;

/**
 * Writes the compact form of `digest` (base64url of 32 bytes) at
 * `out[offset…]` ({@link COMPACT_DIGEST_BYTES} bytes).
 * @throws RangeError when `digest` is not a value digest.
 */
export function writeCompactDigest(out: Uint8Array, offset: number, digest: string): void {
  out.set(DIGEST_EXT_HEAD, offset);
  writeRawDigest(out, offset + DIGEST_EXT_HEAD.byteLength, digest);
}

/**
 * Writes the 32 raw bytes of `digest` (base64url) at `out[offset…]`: the
 * payload of a compact digest, and the head of a compact value item's.
 * @throws RangeError when `digest` is not a value digest.
 */
export function writeRawDigest(out: Uint8Array, offset: number, digest: string): void {
  const raw = Buffer.from(digest, 'base64url');
  // The round trip refuses what base64url decoding would silently bend.
  if (raw.byteLength !== DIGEST_BYTES || raw.toString('base64url') !== digest)
    throw new RangeError(`"${digest}" is not a value digest (base64url of ${DIGEST_BYTES} bytes)`);
  out.set(raw, offset);
}

/** The digest (base64url) a compact digest's payload carries. */
export function digestOfPayload(payload: Uint8Array): string {
  if (payload.byteLength !== DIGEST_BYTES)
    throw new RangeError(
      `a digest (msgpack ext ${DIGEST_EXT_TYPE}) carries ${DIGEST_BYTES} bytes, not ${payload.byteLength}`,
    );
  return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('base64url');
}
