import { open } from 'node:fs/promises';
import { readFrames, checkSegmentHeader, SEGMENT_HEADER_BYTES } from '../outbox/index.js';

/** What one segment file holds, read without changing it. */
export type SegmentCount =
  | { kind: 'ok'; records: number; bytes: number; createdAtMs: number; writtenAtMs: number }
  /** A foreign header or a newer format version: the outbox leaves such files alone. */
  | { kind: 'unreadable' }
  /** Deleted between listing and reading it (a replay acknowledged it meanwhile). */
  | { kind: 'gone' };

/**
 * Counts the whole, valid records of a segment. Read-only: unlike
 * `Outbox.open` it never truncates a torn tail, so it is safe on a folder a
 * live process is appending to (a record being written is not counted yet).
 */
export async function countSegment(path: string): Promise<SegmentCount> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' };
    throw error;
  }
  try {
    const { size, mtimeMs, birthtimeMs } = await handle.stat();
    // Shorter than a header: created by a crash just before its header was written; holds nothing.
    if (size < SEGMENT_HEADER_BYTES)
      return { kind: 'ok', records: 0, bytes: 0, createdAtMs: mtimeMs, writtenAtMs: mtimeMs };
    const header = Buffer.alloc(SEGMENT_HEADER_BYTES);
    await handle.read(header, 0, SEGMENT_HEADER_BYTES, 0);
    if (checkSegmentHeader(header).kind !== 'ok') return { kind: 'unreadable' };
    let records = 0;
    const end = await readFrames(handle, SEGMENT_HEADER_BYTES, size, () => {
      records++;
    });
    // Not every file system records a birth time (it reads as 0); the last write is the next best thing.
    const createdAtMs = birthtimeMs > 0 ? birthtimeMs : mtimeMs;
    return { kind: 'ok', records, bytes: end.offset, createdAtMs, writtenAtMs: mtimeMs };
  } finally {
    await handle.close();
  }
}
