import type { OutboxFileHandle } from './outbox-file-system.js';
import { FRAME_HEADER_BYTES, frameChecksum } from './record-frame.js';

/** How reading a range of frames ended. `offset` is just past the last whole, valid record. */
export type FramesEnd =
  /** Every byte of the range was a valid frame. */
  | { kind: 'end'; offset: number }
  /** The callback asked to stop. */
  | { kind: 'stopped'; offset: number }
  /** The range ends inside a frame (a torn write), or a length field points past the end. */
  | { kind: 'torn'; offset: number }
  /** A whole frame is there but its checksum does not match. */
  | { kind: 'corrupt'; offset: number };

/** Called per record; return `false` (or a promise of it) to stop. `endOffset` is the file offset just past the record. */
export type OnFrame = (payload: Uint8Array, endOffset: number) => unknown;

/**
 * Reads the frames in `[start, end)` of `handle` sequentially, in chunks of
 * about `chunkBytes`. Payloads handed to `onFrame` stay valid after it returns
 * (every chunk is a fresh buffer), so a caller may batch them.
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

  for (;;) {
    if (buffered.byteLength < FRAME_HEADER_BYTES) {
      if (fileAt >= end)
        return buffered.byteLength === 0 ? { kind: 'end', offset } : { kind: 'torn', offset };
      if (!(await fill(FRAME_HEADER_BYTES - buffered.byteLength))) return { kind: 'torn', offset };
      continue;
    }
    const length = buffered.readUInt32LE(0);
    const frameEnd = offset + FRAME_HEADER_BYTES + length;
    // Checked before allocating anything: a garbage length must not make us allocate gigabytes.
    if (frameEnd > end) return { kind: 'torn', offset };
    if (buffered.byteLength < FRAME_HEADER_BYTES + length) {
      if (!(await fill(FRAME_HEADER_BYTES + length - buffered.byteLength))) return { kind: 'torn', offset };
      continue;
    }
    const payload = buffered.subarray(FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + length);
    if (frameChecksum(buffered.subarray(0, 4), payload) !== buffered.readUInt32LE(4)) {
      return { kind: 'corrupt', offset };
    }
    buffered = buffered.subarray(FRAME_HEADER_BYTES + length);
    offset = frameEnd;
    if ((await onFrame(payload, frameEnd)) === false) return { kind: 'stopped', offset };
  }
}
