import { debuglog } from 'node:util';
import { OutboxReadFailedError } from './errors/index.js';
import type { OutboxFileHandle, OutboxFileSystem } from './outbox-file-system.js';
import { readFrames } from './read-frames.js';
import {
  checkSegmentHeader,
  newSegmentInfo,
  parseSegmentFileName,
  SEGMENT_HEADER_BYTES,
  type SegmentInfo,
} from './segment-file.js';

const debug = debuglog('weft');

/** What `open()` found on disk. */
export interface RecoveredSegments {
  /** Readable segments, oldest first, with exact record counts. */
  segments: SegmentInfo[];
  /** Sequence number for the next new segment (past every segment-like file, readable or not). */
  nextSequence: number;
  /** The newest segment, opened for appending, when it is readable. */
  tail: { info: SegmentInfo; handle: OutboxFileHandle } | undefined;
}

/** Problems found while recovering, for the caller to turn into warnings. */
export type RecoveryProblem =
  | { kind: 'torn-tail'; path: string; offset: number; bytesRemoved: number }
  | { kind: 'corrupt-segment'; path: string; offset: number; bytesSkipped: number }
  | { kind: 'unreadable-segment'; path: string; reason: string };

/**
 * Reads every segment once to count its records. The newest segment's
 * malformed tail (a crash mid-append) is truncated here and only here: after
 * this, appends never read a file. An older segment can only have a bad tail
 * if a failed write could not be rolled back (or the disk rotted); it is left
 * as is and read up to its last valid record.
 */
export async function recoverSegments(
  fs: OutboxFileSystem,
  dir: string,
  syncAfterTruncate: boolean,
  onProblem: (problem: RecoveryProblem) => void,
): Promise<RecoveredSegments> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    throw new OutboxReadFailedError(dir, error);
  }
  const sequences = names
    .map(parseSegmentFileName)
    .filter((sequence): sequence is number => sequence !== undefined)
    .sort((a, b) => a - b);
  const segments: SegmentInfo[] = [];
  let tail: RecoveredSegments['tail'];

  for (const [index, sequence] of sequences.entries()) {
    const newest = index === sequences.length - 1;
    const info = newSegmentInfo(dir, sequence, SEGMENT_HEADER_BYTES, 0);
    let handle: OutboxFileHandle;
    try {
      handle = await fs.open(info.path, newest ? 'r+' : 'r');
    } catch (error) {
      throw new OutboxReadFailedError(info.path, error);
    }
    let outcome: 'keep' | 'keep-open' | 'remove' | 'ignore' = 'remove';
    try {
      outcome = await recoverOne(handle, info, newest, syncAfterTruncate, onProblem);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw new OutboxReadFailedError(info.path, error);
    }
    if (outcome !== 'keep-open') await handle.close();
    if (outcome === 'remove') {
      // Holds no record (a crash right after creating it, or everything cut as torn): nothing to replay.
      debug('outbox: removing empty segment %s', info.path);
      await fs.unlink(info.path);
      continue;
    }
    if (outcome === 'ignore') continue;
    segments.push(info);
    if (outcome === 'keep-open') tail = { info, handle };
  }
  return { segments, nextSequence: (sequences.at(-1) ?? 0) + 1, tail };
}

async function recoverOne(
  handle: OutboxFileHandle,
  info: SegmentInfo,
  newest: boolean,
  syncAfterTruncate: boolean,
  onProblem: (problem: RecoveryProblem) => void,
): Promise<'keep' | 'keep-open' | 'remove' | 'ignore'> {
  const { size } = await handle.stat();
  if (size < SEGMENT_HEADER_BYTES) return 'remove'; // crashed between creating the file and writing its header
  const header = Buffer.alloc(SEGMENT_HEADER_BYTES);
  await handle.read(header, 0, SEGMENT_HEADER_BYTES, 0);
  const check = checkSegmentHeader(header);
  if (check.kind !== 'ok') {
    // Not ours to delete: report it and leave it where it is.
    const reason =
      check.kind === 'bad-magic'
        ? 'it does not start with the WEFTOBOX header'
        : `it has format version ${check.version}, written by a newer Weft`;
    onProblem({ kind: 'unreadable-segment', path: info.path, reason });
    return 'ignore';
  }
  const end = await readFrames(handle, SEGMENT_HEADER_BYTES, size, () => {
    info.records++;
  });
  info.bytes = end.offset;
  if (end.offset < size) {
    if (newest) {
      await handle.truncate(end.offset);
      if (syncAfterTruncate) await handle.sync();
      onProblem({ kind: 'torn-tail', path: info.path, offset: end.offset, bytesRemoved: size - end.offset });
    } else {
      onProblem({
        kind: 'corrupt-segment',
        path: info.path,
        offset: end.offset,
        bytesSkipped: size - end.offset,
      });
    }
  }
  if (newest) return 'keep-open';
  return info.records === 0 ? 'remove' : 'keep';
}
