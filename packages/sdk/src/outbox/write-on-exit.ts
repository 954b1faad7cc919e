import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordPayload } from '../transport/index.js';
import { OUTBOX_DIR_MODE, OUTBOX_FILE_MODE } from './outbox-file-system.js';
import { encodeFrames } from './record-frame.js';
import { SEGMENT_HEADER_BYTES, segmentFileName, segmentHeader } from './segment-file.js';

/**
 * Synchronous writing, for the one moment the event loop will not turn
 * again: a process `exit` (after `process.exit()`, the outbox's own writer,
 * which works on later turns, never runs). Nothing else may use these: a
 * synchronous write on any other turn blocks the caller's code.
 */

/**
 * Writes `records` as a new segment file at `path` (it must not exist:
 * created with O_EXCL, owner-only), then fsyncs it. Throws what the file
 * system throws; a file cut short is a torn segment the next open repairs.
 */
export function writeSegmentSync(path: string, records: readonly RecordPayload[]): void {
  const frames = encodeFrames(records, 0, records.length);
  const fd = openSync(path, 'wx', OUTBOX_FILE_MODE);
  try {
    writeAllSync(fd, segmentHeader(), 0);
    writeAllSync(fd, frames, SEGMENT_HEADER_BYTES);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates the folder `dir` (a process folder that does not exist yet) and
 * writes `records` into it as its first segment. Used when this process had
 * not opened its outbox yet: the folder has no lock (its writer is gone), so
 * the next process of the project adopts it, replays it and removes it, like
 * the folder of any process that died.
 */
export function writeFolderSync(dir: string, records: readonly RecordPayload[]): void {
  mkdirSync(dir, { recursive: true, mode: OUTBOX_DIR_MODE });
  writeSegmentSync(join(dir, segmentFileName(1n)), records);
}

function writeAllSync(fd: number, bytes: Uint8Array, position: number): void {
  let done = 0;
  while (done < bytes.byteLength) {
    const written = writeSync(fd, bytes, done, bytes.byteLength - done, position + done);
    if (written <= 0) throw Object.assign(new Error('write made no progress'), { code: 'EIO' });
    done += written;
  }
}
