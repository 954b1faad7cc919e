import type { OutboxFileHandle } from './outbox-file-system.js';
import { FRAME_HEADER_BYTES, frameChecksum } from './record-frame.js';

/** Bytes `[from, to)` of a file that hold no valid frame: skipped. */
export interface DamagedRange {
  from: number;
  to: number;
}

/** How reading a range of frames ended. */
export interface FramesEnd {
  /** `end`: the whole range was read. `stopped`: the callback asked to stop. */
  kind: 'end' | 'stopped';
  /** Just past the last whole, valid record read. */
  offset: number;
  /**
   * Ranges skipped because no valid frame starts in them, in file order. The
   * last one ends at the range's end when the damage runs to it (what a
   * crash mid-append leaves: a torn tail).
   */
  damaged: DamagedRange[];
}

/** Called per record; return `false` (or a promise of it) to stop. `endOffset` is the file offset just past the record. */
export type OnFrame = (payload: Uint8Array, endOffset: number) => unknown;

/**
 * Reads the frames in `[start, end)` of `handle` sequentially, in chunks of
 * about `chunkBytes`. Payloads handed to `onFrame` stay valid after it returns
 * (every chunk is a fresh buffer), so a caller may batch them.
 *
 * A frame is valid when its length fits the range and its checksum (which
 * covers the length) matches. Where one is not, the reader resynchronises:
 * it tries every following byte as the start of a frame and goes on at the
 * first valid one, so damage costs the records it overlaps, not the rest of
 * the file:
 *
 * ```
 *   [rec 1][rec 2][r▓▓▓▓3][rec 4][rec 5]   64 bytes overwritten in record 3
 *   read 1, 2 │ skip ▓ to the next valid frame │ read 4, 5   damaged: [start of 3, start of 4)
 * ```
 *
 * A chance match needs a 32-bit checksum to agree, about one candidate in
 * four billion. A candidate whose length points past the range (random
 * bytes, mostly) is refused without reading its payload.
 */
export async function readFrames(
  handle: OutboxFileHandle,
  start: number,
  end: number,
  onFrame: OnFrame,
  chunkBytes = 1 << 20,
): Promise<FramesEnd> {
  let buffered: Buffer = Buffer.alloc(0);
  let offset = start; // file offset of buffered[0]
  let fileAt = start; // next file offset to read
  let lastValid = start;
  const damaged: DamagedRange[] = [];
  let damageFrom: number | undefined;

  // Appends at least `needed` more bytes to `buffered`; false when the file or range is exhausted first.
  const fill = async (needed: number): Promise<boolean> => {
    const want = Math.min(end - fileAt, Math.max(chunkBytes, needed));
    if (want < needed) return false;
    const next = Buffer.allocUnsafe(buffered.byteLength + want);
    buffered.copy(next, 0);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await handle.read(next, buffered.byteLength + got, want - got, fileAt + got);
      if (bytesRead === 0) break; // the file is shorter than we were told
      got += bytesRead;
    }
    buffered = next.subarray(0, buffered.byteLength + got);
    fileAt += got;
    return got >= needed;
  };
  const finish = (kind: FramesEnd['kind']): FramesEnd => {
    if (damageFrom !== undefined) damaged.push({ from: damageFrom, to: kind === 'end' ? end : offset });
    return { kind, offset: lastValid, damaged };
  };
  // No valid frame starts at `offset`: skip one byte and try the next.
  const skipByte = () => {
    damageFrom ??= offset;
    buffered = buffered.subarray(1);
    offset += 1;
  };

  for (;;) {
    if (offset >= end) return finish('end');
    if (buffered.byteLength < FRAME_HEADER_BYTES) {
      if (!(await fill(FRAME_HEADER_BYTES - buffered.byteLength))) {
        // Fewer bytes left than a frame header: no frame can start here or after.
        damageFrom ??= offset;
        return finish('end');
      }
      continue;
    }
    const length = buffered.readUInt32LE(0);
    const frameEnd = offset + FRAME_HEADER_BYTES + length;
    // Checked before reading any payload: a garbage length must not make us allocate gigabytes.
    if (frameEnd > end) {
      skipByte();
      continue;
    }
    if (buffered.byteLength < FRAME_HEADER_BYTES + length) {
      if (!(await fill(FRAME_HEADER_BYTES + length - buffered.byteLength))) {
        skipByte();
        continue;
      }
      continue;
    }
    const payload = buffered.subarray(FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + length);
    if (frameChecksum(buffered.subarray(0, 4), payload) !== buffered.readUInt32LE(4)) {
      skipByte();
      continue;
    }
    if (damageFrom !== undefined) {
      damaged.push({ from: damageFrom, to: offset });
      damageFrom = undefined;
    }
    buffered = buffered.subarray(FRAME_HEADER_BYTES + length);
    offset = frameEnd;
    lastValid = frameEnd;
    if ((await onFrame(payload, frameEnd)) === false) return finish('stopped');
  }
}

/** Bytes in `damaged`. */
export function damagedBytes(damaged: readonly DamagedRange[]): number {
  let bytes = 0;
  for (const range of damaged) bytes += range.to - range.from;
  return bytes;
}
