import { join } from 'node:path';

/**
 * Segment files are named `segment-<sequence>.seg`, the sequence written with
 * at least 16 digits, and start with a 16-byte header:
 *
 * ```
 * ┌──────────────────┬─────────────┬──────────────┐
 * │ "WEFTOBOX" 8 B   │ version u32 │ reserved u32 │   then frames (record-frame.ts)
 * └──────────────────┴─────────────┴──────────────┘
 * ```
 */
export const SEGMENT_HEADER_BYTES = 16;
export const SEGMENT_VERSION = 1;

const MAGIC = Buffer.from('WEFTOBOX', 'latin1');
const NAME = /^segment-(\d{16,})\.seg$/;

/** Suffix a damaged segment is renamed with once replayed: kept for inspection, never read again. */
export const DAMAGED_SUFFIX = '.damaged';

/** The header every new segment starts with. */
export function segmentHeader(): Buffer {
  const header = Buffer.alloc(SEGMENT_HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(SEGMENT_VERSION, 8);
  return header;
}

/** Reads a header: `ok`, a newer `version` this code cannot read, or not a segment header at all. */
export function checkSegmentHeader(
  header: Uint8Array,
): { kind: 'ok' } | { kind: 'unsupported-version'; version: number } | { kind: 'bad-magic' } {
  const bytes = Buffer.from(header.buffer, header.byteOffset, header.byteLength);
  if (bytes.byteLength < SEGMENT_HEADER_BYTES || !bytes.subarray(0, 8).equals(MAGIC))
    return { kind: 'bad-magic' };
  const version = bytes.readUInt32LE(8);
  return version === SEGMENT_VERSION ? { kind: 'ok' } : { kind: 'unsupported-version', version };
}

/** File name of segment number `sequence`. */
export function segmentFileName(sequence: bigint): string {
  return `segment-${String(sequence).padStart(16, '0')}.seg`;
}

/**
 * Sequence number of a segment file name, or `undefined` for any other file.
 * A `bigint`: a name past 2^53 (`segment-9999999999999999.seg`) is read
 * exactly, so the next segment still gets a larger number and a name of its
 * own (as a JavaScript number it rounded onto a name that exists, and every
 * new segment collided with it: the outbox could not be opened).
 */
export function parseSegmentFileName(name: string): bigint | undefined {
  const match = NAME.exec(name);
  return match ? BigInt(match[1]!) : undefined;
}

/** What the outbox knows about one segment; kept in memory so appends never read files. */
export interface SegmentInfo {
  readonly sequence: bigint;
  readonly path: string;
  /** Bytes of valid data (header + whole frames); the file is never longer once open() is done. */
  bytes: number;
  /** Whole records in the segment. */
  records: number;
  /** Records acknowledged by a replay in this process (a prefix of the segment). */
  ackedRecords: number;
  /** File offset just past the last acknowledged record; where the next replay resumes. */
  ackedOffset: number;
  /** Damaged bytes found in it (skipped, not truncated): once replayed it is set aside, not deleted. */
  skippedBytes: number;
}

/** A fresh in-memory entry for segment `sequence` in `dir`. */
export function newSegmentInfo(dir: string, sequence: bigint, bytes: number, records: number): SegmentInfo {
  return {
    sequence,
    path: join(dir, segmentFileName(sequence)),
    bytes,
    records,
    ackedRecords: 0,
    ackedOffset: SEGMENT_HEADER_BYTES,
    skippedBytes: 0,
  };
}
