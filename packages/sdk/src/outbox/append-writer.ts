import { ReusableBytes } from '../memory/index.js';
import type { WarningLimiter } from '../diagnostics/index.js';
import type { RecordPayload } from '../transport/index.js';
import { OutboxInvalidRecordError, OutboxWriteFailedError } from './errors/index.js';
import type { ResolvedOutboxOptions } from './outbox-options.js';
import {
  encodeFrames,
  FRAME_HEADER_BYTES,
  frameBytes,
  MAX_FRAME_PAYLOAD_BYTES,
  payloadBytes,
} from './record-frame.js';
import type { SegmentAppender } from './segment-appender.js';
import type { SegmentBooks } from './segment-books.js';
import { SEGMENT_HEADER_BYTES, type SegmentInfo } from './segment-file.js';

/** Largest frames buffer kept for reuse; a bigger write (a whole queue spilled at once) gets its own. */
const FRAME_MEMORY_MAX_BYTES = 8 * 1024 * 1024;

/** One `append()` call waiting for (or in) a write round. */
export interface PendingAppend {
  readonly records: readonly RecordPayload[];
  /** Indexes of the caller's array refused as invalid. */
  readonly invalid: readonly number[];
  /** Records written so far (a prefix of `records`). */
  written: number;
  failure: OutboxWriteFailedError | undefined;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Writes rounds of appends into segment files: as many records per segment
 * as fit `segmentBytes`, rotating when full, making room under `maxBytes`
 * first, one fsync per round (group commit), then settles each append.
 * Its caller serializes the rounds, so one write runs at a time.
 */
export class AppendWriter {
  /** Largest record `append()` takes: `maxBytes` minus framing, at most a frame's payload. */
  readonly maxRecordBytes: number;
  readonly #options: ResolvedOutboxOptions;
  readonly #dir: string;
  readonly #books: SegmentBooks;
  readonly #appender: SegmentAppender;
  readonly #warnings: WarningLimiter;
  /** Frame memory, reused from one write to the next (writes are serialized). */
  readonly #frameMemory = new ReusableBytes(1, FRAME_MEMORY_MAX_BYTES);
  /** Appends rejected because the disk write (or its fsync) failed, since open. */
  #writeFailures = 0;

  constructor(
    options: ResolvedOutboxOptions,
    dir: string,
    books: SegmentBooks,
    appender: SegmentAppender,
    warnings: WarningLimiter,
  ) {
    this.#options = options;
    this.#dir = dir;
    this.#books = books;
    this.#appender = appender;
    this.#warnings = warnings;
    this.maxRecordBytes = Math.min(
      MAX_FRAME_PAYLOAD_BYTES,
      options.maxBytes - SEGMENT_HEADER_BYTES - FRAME_HEADER_BYTES,
    );
  }

  get writeFailures(): number {
    return this.#writeFailures;
  }

  /**
   * Writes every append of `round`, then fsyncs once for all of them (group
   * commit), then settles their promises in order.
   */
  async writeRound(round: PendingAppend[]): Promise<void> {
    let syncError: unknown;
    for (const pending of round) {
      const error = await this.#writeAppend(pending);
      syncError ??= error;
    }
    if (syncError === undefined && this.#options.fsync === 'batch') {
      try {
        await this.#appender.sync();
      } catch (error) {
        syncError = error;
      }
    }
    for (const pending of round) {
      if (pending.failure === undefined && syncError !== undefined && pending.records.length > 0) {
        // Written but not known durable. The caller keeps them; a copy may also be replayed (upserts are idempotent).
        pending.failure = this.#writeFailed(syncError, 0, pending.records.length);
      }
      if (pending.failure) pending.reject(pending.failure);
      else if (pending.invalid.length > 0) {
        pending.reject(
          new OutboxInvalidRecordError(
            pending.invalid,
            `each record must be a Uint8Array (or an array of them) of at most ${this.maxRecordBytes} bytes (maxBytes minus framing)`,
          ),
        );
      } else pending.resolve();
    }
  }

  /** Closes the segment being written (fsync per policy); returns the fsync error. A segment with no record is deleted. */
  async closeSegment(): Promise<unknown> {
    const closed = await this.#appender.close();
    if (closed === undefined) return undefined;
    if (closed.segment.records === 0) await this.#books.forget(closed.segment);
    return closed.syncError;
  }

  /** Counts and warns about a failed write or fsync that loses no caller's record (at close, before a replay). */
  reportWriteFailure(error: unknown, recordsNotWritten: number): void {
    this.#writeFailures++;
    const code = (error as NodeJS.ErrnoException | null)?.code ?? 'unknown error';
    this.#warnings.report('write-failed', { recordsNotWritten }, (counts, occurrences) => ({
      message:
        `Weft outbox ${this.#dir}: write failed (${code}); ${counts.recordsNotWritten} record(s) not written` +
        (occurrences > 1 ? ` over ${occurrences} failures since the last warning` : '') +
        '. Records already in the outbox are intact; free disk space or check the folder.',
      details: { dir: this.#dir, code, writeFailures: this.#writeFailures },
    }));
  }

  /**
   * Writes one append's records into as many segments as they need. Returns an
   * fsync error from closing a full segment, if any; write errors are recorded
   * on `pending.failure`.
   */
  async #writeAppend(pending: PendingAppend): Promise<unknown> {
    const { records } = pending;
    const { segmentBytes } = this.#options;
    let syncError: unknown;
    while (pending.written < records.length) {
      const start = pending.written;
      let segment: SegmentInfo;
      try {
        segment = await this.#ensureSegment();
      } catch (error) {
        pending.failure = this.#writeFailed(error, start, records.length - start);
        return syncError;
      }
      if (segment.records > 0 && segment.bytes + frameBytes(payloadBytes(records[start]!)) > segmentBytes) {
        syncError ??= await this.closeSegment();
        continue;
      }
      // As many records as fit the segment; always at least one (an oversized record gets a segment of its own).
      let end = start + 1;
      let chunkBytes = frameBytes(payloadBytes(records[start]!));
      while (
        end < records.length &&
        segment.bytes + chunkBytes + frameBytes(payloadBytes(records[end]!)) <= segmentBytes
      ) {
        chunkBytes += frameBytes(payloadBytes(records[end]!));
        end++;
      }
      await this.#books.makeRoom(chunkBytes, this.#appender.segment);
      try {
        const frames = encodeFrames(records, start, end, this.#frameMemory.take);
        await this.#appender.append(frames, end - start);
        this.#books.written += end - start;
        // Written (or cut off again after a failed write): nothing reads the frames any more.
        this.#frameMemory.release(frames);
      } catch (error) {
        pending.failure = this.#writeFailed(error, start, records.length - start);
        return syncError;
      }
      pending.written = end;
      if (segment.bytes >= segmentBytes) syncError ??= await this.closeSegment();
    }
    return syncError;
  }

  /** The segment being written, started when there is none. */
  async #ensureSegment(): Promise<SegmentInfo> {
    const open = this.#appender.segment;
    if (open) return open;
    const started = await this.#appender.start();
    this.#books.add(started);
    return started;
  }

  #writeFailed(error: unknown, recordsWritten: number, recordsNotWritten: number): OutboxWriteFailedError {
    this.reportWriteFailure(error, recordsNotWritten);
    return new OutboxWriteFailedError({ dir: this.#dir, recordsWritten, recordsNotWritten, cause: error });
  }
}
