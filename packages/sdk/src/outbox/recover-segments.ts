import { debuglog } from 'node:util';
import { OutboxReadFailedError } from './errors/index.js';
import type { OutboxFileHandle, OutboxFileSystem } from './outbox-file-system.js';
import { damagedBytes, readFrames } from './read-frames.js';
import {
  checkSegmentHeader,
  DAMAGED_SUFFIX,
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
  nextSequence: bigint;
  /** The newest segment, opened for appending, when it is readable. */
  tail: { info: SegmentInfo; handle: OutboxFileHandle } | undefined;
}

/** Problems found while recovering (or replaying), for the caller to turn into warnings. */
export type RecoveryProblem =
  | { kind: 'torn-tail'; path: string; offset: number; bytesRemoved: number }
  /** Damaged bytes inside a segment, skipped: the valid records around them are kept. */
  | { kind: 'corrupt-segment'; path: string; offset: number; bytesSkipped: number; ranges: number }
  /** A replayed segment that had damaged bytes, renamed instead of deleted. */
  | { kind: 'set-aside'; path: string; keptAs: string; bytesSkipped: number }
  | { kind: 'unreadable-segment'; path: string; reason: string };

/**
 * Reads every segment once to count its records. Damage is skipped, not
 * fatal: the reader resynchronises at the next valid frame (see
 * `readFrames`), so a damaged frame costs the records it overlaps. Only
 * damage that runs to the end of the newest segment is a torn tail (a crash
 * mid-append) and is truncated, here and only here: after this, appends
 * never read a file. Damage anywhere else is reported and the segment is
 * marked, to be set aside rather than deleted once replayed.
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
    .filter((sequence): sequence is bigint => sequence !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
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
    let outcome: 'keep' | 'keep-open' | 'remove' | 'set-aside' | 'ignore' = 'remove';
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
    if (outcome === 'set-aside') {
      // Nothing valid to replay, but damaged bytes someone may want to look at.
      await setSegmentAside(fs, info, onProblem);
      continue;
    }
    if (outcome === 'ignore') continue;
    segments.push(info);
    if (outcome === 'keep-open') tail = { info, handle };
  }
  return { segments, nextSequence: (sequences.at(-1) ?? 0n) + 1n, tail };
}

/** Renames a damaged segment to `<name>.damaged` (never read again, kept for inspection) and reports it. */
export async function setSegmentAside(
  fs: OutboxFileSystem,
  segment: SegmentInfo,
  onProblem: (problem: RecoveryProblem) => void,
): Promise<void> {
  const keptAs = `${segment.path}${DAMAGED_SUFFIX}`;
  await fs.rename(segment.path, keptAs);
  onProblem({ kind: 'set-aside', path: segment.path, keptAs, bytesSkipped: segment.skippedBytes });
}

async function recoverOne(
  handle: OutboxFileHandle,
  info: SegmentInfo,
  newest: boolean,
  syncAfterTruncate: boolean,
  onProblem: (problem: RecoveryProblem) => void,
): Promise<'keep' | 'keep-open' | 'remove' | 'set-aside' | 'ignore'> {
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
  let damaged = end.damaged;
  info.bytes = size;
  const last = damaged.at(-1);
  if (newest && last !== undefined && last.to === size) {
    // Damage that runs to the end of the newest segment, with no valid frame after it: a torn append.
    await handle.truncate(last.from);
    if (syncAfterTruncate) await handle.sync();
    onProblem({ kind: 'torn-tail', path: info.path, offset: last.from, bytesRemoved: size - last.from });
    info.bytes = last.from;
    damaged = damaged.slice(0, -1);
  }
  info.skippedBytes = damagedBytes(damaged);
  if (damaged.length > 0) {
    onProblem({
      kind: 'corrupt-segment',
      path: info.path,
      offset: damaged[0]!.from,
      bytesSkipped: info.skippedBytes,
      ranges: damaged.length,
    });
  }
  if (newest) return 'keep-open';
  if (info.records > 0) return 'keep';
  return info.skippedBytes > 0 ? 'set-aside' : 'remove';
}
