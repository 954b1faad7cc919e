import { debuglog } from 'node:util';
import type { WarningLimiter } from '../diagnostics/index.js';
import type { OutboxFileSystem } from './outbox-file-system.js';
import { type DamagedRange, damagedBytes } from './read-frames.js';
import { setSegmentAside } from './recover-segments.js';
import { reportRecoveryProblem } from './report-recovery-problem.js';
import type { SegmentInfo } from './segment-file.js';

const debug = debuglog('weft');

/**
 * The outbox's books: which segment files it holds (oldest first; the one
 * being written, when there is one, is the last) and what became of the
 * records in them. Every segment leaves through here: dropped for the disk
 * bound, deleted once replayed, or set aside when damaged.
 */
export class SegmentBooks {
  readonly #fs: OutboxFileSystem;
  readonly #dir: string;
  readonly #maxBytes: number;
  readonly #warnings: WarningLimiter;
  readonly #segments: SegmentInfo[];
  /** Records written to (or found in) the files, ever: see `Outbox.progress`. */
  written = 0;
  /** Of those, records acknowledged by a replay or dropped: see `Outbox.progress`. */
  settled = 0;
  /** Records deleted unacknowledged since open (disk bound, damage). */
  droppedRecords = 0;

  constructor(
    fs: OutboxFileSystem,
    dir: string,
    maxBytes: number,
    warnings: WarningLimiter,
    recovered: SegmentInfo[],
  ) {
    this.#fs = fs;
    this.#dir = dir;
    this.#maxBytes = maxBytes;
    this.#warnings = warnings;
    this.#segments = recovered;
    for (const segment of recovered) this.written += segment.records;
  }

  /** The oldest segment, if any. */
  get oldest(): SegmentInfo | undefined {
    return this.#segments[0];
  }

  /** Books a segment just started (it becomes the newest). */
  add(segment: SegmentInfo): void {
    this.#segments.push(segment);
  }

  /** True while `segment` is still on the books (a replay reading it checks: it may have been dropped meanwhile). */
  holds(segment: SegmentInfo): boolean {
    return this.#segments.includes(segment);
  }

  /** Segment files, their bytes, and the records in them not yet acknowledged. */
  counts(): { segments: number; bytes: number; records: number } {
    let bytes = 0;
    let records = 0;
    for (const segment of this.#segments) {
      bytes += segment.bytes;
      records += segment.records - segment.ackedRecords;
    }
    return { segments: this.#segments.length, bytes, records };
  }

  /**
   * Deletes the oldest closed segments until `incomingBytes` more fit under
   * `maxBytes`; never `open`, the segment being written.
   */
  async makeRoom(incomingBytes: number, open: SegmentInfo | undefined): Promise<void> {
    const maxBytes = this.#maxBytes;
    let droppedRecords = 0;
    let droppedSegments = 0;
    while (this.#segments.reduce((total, segment) => total + segment.bytes, 0) + incomingBytes > maxBytes) {
      const oldest = this.#segments[0];
      if (oldest === undefined || oldest === open) break;
      droppedRecords += oldest.records - oldest.ackedRecords;
      droppedSegments++;
      await this.forget(oldest);
    }
    if (droppedSegments === 0) return;
    this.droppedRecords += droppedRecords;
    this.settled += droppedRecords;
    this.#warnings.report('disk-bound', { droppedRecords, droppedSegments }, (counts, occurrences) => ({
      message:
        `Weft outbox ${this.#dir} reached maxBytes (${maxBytes} bytes): deleted the ${counts.droppedSegments} oldest ` +
        `segment(s) with ${counts.droppedRecords} unsent record(s)` +
        (occurrences > 1 ? ` over ${occurrences} writes since the last warning` : '') +
        '. Is the server reachable? Raise maxBytes to keep more.',
      details: { dir: this.#dir, maxBytes, totalDroppedRecords: this.droppedRecords },
    }));
  }

  /** Drops a segment from the books and deletes its file (a replay reading it notices and moves on). */
  async forget(segment: SegmentInfo): Promise<void> {
    const index = this.#segments.indexOf(segment);
    if (index === -1) return;
    this.#segments.splice(index, 1);
    try {
      await this.#fs.unlink(segment.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        debug('outbox: could not delete %s: %s', segment.path, (error as Error).message);
      }
    }
  }

  /**
   * A segment replayed to its end: deleted, or, when damaged bytes were
   * skipped in it (found at open, or now), renamed aside and reported.
   * Records open() counted that this replay did not find were damaged since
   * (bit rot, an edit): they are counted as dropped.
   */
  async replayed(segment: SegmentInfo, damaged: readonly DamagedRange[]): Promise<void> {
    const lost = segment.records - segment.ackedRecords;
    if (lost > 0) {
      this.droppedRecords += lost;
      this.settled += lost;
    }
    const found = damagedBytes(damaged);
    if (found > segment.skippedBytes) {
      reportRecoveryProblem(this.#warnings, {
        kind: 'corrupt-segment',
        path: segment.path,
        offset: damaged[0]!.from,
        bytesSkipped: found,
        ranges: damaged.length,
      });
      segment.skippedBytes = found;
    }
    if (segment.skippedBytes === 0) {
      await this.forget(segment);
      return;
    }
    this.#segments.splice(this.#segments.indexOf(segment), 1);
    try {
      await setSegmentAside(this.#fs, segment, (problem) => reportRecoveryProblem(this.#warnings, problem));
    } catch (error) {
      debug('outbox: could not set %s aside: %s', segment.path, (error as Error).message);
    }
  }
}
