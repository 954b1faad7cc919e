import { crc32 } from 'node:zlib';

/**
 * One record on disk:
 *
 * ```
 * ┌──────────────┬──────────────┬────────────────────┐
 * │ length  u32LE│ crc32   u32LE│ payload (length B) │
 * └──────────────┴──────────────┴────────────────────┘
 *   crc32 covers the 4 length bytes, then the payload
 * ```
 *
 * The checksum covers the length too, so a torn or zero-filled tail (what a
 * crash leaves) never parses as a record: an all-zero frame has crc32(00000000)
 * = 0x2144df1c, not 0.
 */
export const FRAME_HEADER_BYTES = 8;

/** Largest payload a frame can describe. */
export const MAX_FRAME_PAYLOAD_BYTES = 0xffff_ffff;

/** Checksum stored in a frame for `payload` whose length bytes are `lengthBytes`. */
export function frameChecksum(lengthBytes: Uint8Array, payload: Uint8Array): number {
  return crc32(payload, crc32(lengthBytes));
}

/** Size on disk of a record with `payloadBytes` bytes. */
export function frameBytes(payloadBytes: number): number {
  return FRAME_HEADER_BYTES + payloadBytes;
}

/** Frames `records[start, end)` into one contiguous buffer, ready for a single write. */
export function encodeFrames(records: readonly Uint8Array[], start: number, end: number): Buffer {
  let total = 0;
  for (let i = start; i < end; i++) total += frameBytes(records[i]!.byteLength);
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (let i = start; i < end; i++) {
    const payload = records[i]!;
    out.writeUInt32LE(payload.byteLength, at);
    out.writeUInt32LE(frameChecksum(out.subarray(at, at + 4), payload), at + 4);
    out.set(payload, at + FRAME_HEADER_BYTES);
    at += FRAME_HEADER_BYTES + payload.byteLength;
  }
  return out;
}
