import { crc32 } from 'node:zlib';
import type { RecordPayload } from '../transport/index.js';

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

/** Bytes in `payload`. */
export function payloadBytes(payload: RecordPayload): number {
  if (payload instanceof Uint8Array) return payload.byteLength;
  let bytes = 0;
  for (const part of payload) bytes += part.byteLength;
  return bytes;
}

/** True for a payload `append` accepts: a byte array, or an array of byte arrays. */
export function isRecordPayload(value: unknown): value is RecordPayload {
  return (
    value instanceof Uint8Array || (Array.isArray(value) && value.every((part) => part instanceof Uint8Array))
  );
}

/** Checksum stored in a frame for `payload` whose length bytes are `lengthBytes`. */
export function frameChecksum(lengthBytes: Uint8Array, payload: RecordPayload): number {
  let crc = crc32(lengthBytes);
  if (payload instanceof Uint8Array) return crc32(payload, crc);
  for (const part of payload) crc = crc32(part, crc);
  return crc;
}

/** Size on disk of a record with `payloadBytes` bytes. */
export function frameBytes(payloadBytes: number): number {
  return FRAME_HEADER_BYTES + payloadBytes;
}

/**
 * Frames `records[start, end)` into one contiguous buffer, ready for a single
 * write. `memory` gives the bytes to write into (by default new ones).
 */
export function encodeFrames(
  records: readonly RecordPayload[],
  start: number,
  end: number,
  memory: (length: number) => Uint8Array = (length) => Buffer.allocUnsafe(length),
): Buffer {
  let total = 0;
  for (let i = start; i < end; i++) total += frameBytes(payloadBytes(records[i]!));
  const bytes = memory(total);
  const out = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  for (let i = start; i < end; i++) {
    const payload = records[i]!;
    const length = payloadBytes(payload);
    out.writeUInt32LE(length, at);
    out.writeUInt32LE(frameChecksum(out.subarray(at, at + 4), payload), at + 4);
    if (payload instanceof Uint8Array) out.set(payload, at + FRAME_HEADER_BYTES);
    else {
      let offset = at + FRAME_HEADER_BYTES;
      for (const part of payload) {
        out.set(part, offset);
        offset += part.byteLength;
      }
    }
    at += FRAME_HEADER_BYTES + length;
  }
  return out;
}
