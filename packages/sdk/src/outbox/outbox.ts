import { ReusableBytes } from '../memory/index.js';
import { AsyncResource } from 'node:async_hooks';
import { realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { debuglog } from 'node:util';
import { WeftError } from '@weft/protocol';
import {
  OutboxClosedError,
  OutboxInvalidRecordError,
  OutboxOpenFailedError,
  OutboxWriteFailedError,
} from './errors/index.js';
import { acquireOutboxLock, type OutboxLock } from './lock-file.js';
import {
  type OutboxOptions,
  type ReplayOptions,
  type ResolvedOutboxOptions,
  resolveOutboxOptions,
  resolveReplayOptions,
} from './outbox-options.js';
import {
  encodeFrames,
  FRAME_HEADER_BYTES,
  frameBytes,
  isRecordPayload,
  MAX_FRAME_PAYLOAD_BYTES,
  payloadBytes,
} from './record-frame.js';
import { recoverSegments, setSegmentAside } from './recover-segments.js';
import { type DamagedRange, damagedBytes } from './read-frames.js';
import { replaySegment } from './replay-segment.js';
import { reportRecoveryProblem } from './report-recovery-problem.js';
import { SegmentAppender } from './segment-appender.js';
import { SEGMENT_HEADER_BYTES, type SegmentInfo, segmentFileName } from './segment-file.js';
import { writeSegmentSync } from './write-on-exit.js';
import { WarningLimiter } from '../diagnostics/index.js';
import type { RecordPayload } from '../transport/index.js';

const debug = debuglog('weft');
const noop = () => undefined;

/** Counts for diagnostics. */

/** Largest frames buffer kept for reuse; a bigger write (a whole queue spilled at once) gets its own. */
const FRAME_MEMORY_MAX_BYTES = 8 * 1024 * 1024;
export interface OutboxStats {
  /** Segment files, including the one being written. */
  segments: number;
  /** Bytes of valid data in those files. */
  bytes: number;
  /** Records in the files not yet acknowledged by a replay of this process. */
  records: number;
  /** Records accepted by `append()` and not written yet (not counting a round being written). */
  pendingRecords: number;
  /** Payload bytes of `pendingRecords`: memory the outbox holds for the caller. */
  pendingBytes: number;
  /**
   * Records deleted unacknowledged since open: the oldest segments, to keep
   * `maxBytes` (a batch in flight when its segment went counts too: the count
   * errs towards reporting a loss), and records lost to a corrupt segment.
   */
  droppedRecords: number;
  /** Appends rejected because the disk write (or its fsync) failed, since open. */
  writeFailures: number;
}

/** What one `replay()` did. */
export interface ReplayResult {
  /** Records acknowledged by `send` during this replay. */
  sent: number;
  /** Records still in the outbox afterwards (including ones appended meanwhile). */
  remaining: number;
  /** What `send` threw, when it threw (a `false` from `send` leaves this unset). */
  error?: unknown;
}

/** Sends one batch; resolves `true` only when the server acknowledged every record of it. */
export type ReplaySend = (records: Uint8Array[]) => Promise<boolean>;

interface PendingAppend {
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
 * A durable, bounded, append-only queue of opaque records on disk: where the
 * SDK keeps records the server has not acknowledged, and replays them from
 * oldest-first when it is back. See docs/outbox.md.
 *
 * ```
 *  append() ─► #pending ─► write round (serialized, one at a time) ─► active segment ─► fsync
 *                               │ full? rotate            over maxBytes? drop oldest ◄─┘
 *  replay() ─► rotate, then read closed segments oldest-first ─► send() ─► delete acked segment
 * ```
 */
export class Outbox {
  readonly #options: ResolvedOutboxOptions;
  readonly #dir: string;
  readonly #lock: OutboxLock;
  readonly #warnings: WarningLimiter;
  /** Work runs in the context `open()` was called in, never in a caller's traced context. */
  readonly #resource = new AsyncResource('WeftOutbox');
  readonly #maxRecordBytes: number;
  /** Frame memory, reused from one write to the next (writes are serialized). */
  readonly #frameMemory = new ReusableBytes(1, FRAME_MEMORY_MAX_BYTES);
  /** Oldest first; the segment being written, when there is one, is the last. */
  readonly #segments: SegmentInfo[];
  readonly #appender: SegmentAppender;
  #pending: PendingAppend[] = [];
  /** The appends the write round in progress is writing (taken out of `#pending`). */
  #writing: PendingAppend[] = [];
  #roundScheduled = false;
  /** Every file mutation runs on this chain, one at a time. */
  #chain: Promise<unknown> = Promise.resolve();
  #replaying: Promise<ReplayResult> | undefined;
  #closing: Promise<void> | undefined;
  #droppedRecords = 0;
  #writeFailures = 0;
  /** Records written to (or found in) the files, ever: see {@link progress}. */
  #written = 0;
  /** Of those, records acknowledged by a replay or dropped: see {@link progress}. */
  #settled = 0;

  private constructor(
    options: ResolvedOutboxOptions,
    dir: string,
    lock: OutboxLock,
    warnings: WarningLimiter,
    recovered: Awaited<ReturnType<typeof recoverSegments>>,
  ) {
    this.#options = options;
    this.#dir = dir;
    this.#lock = lock;
    this.#warnings = warnings;
    this.#segments = recovered.segments;
    this.#appender = new SegmentAppender(
      options.fileSystem,
      dir,
      options.fsync,
      recovered.nextSequence,
      recovered.tail,
    );
    this.#maxRecordBytes = Math.min(
      MAX_FRAME_PAYLOAD_BYTES,
      options.maxBytes - SEGMENT_HEADER_BYTES - FRAME_HEADER_BYTES,
    );
    for (const segment of recovered.segments) this.#written += segment.records;
  }

  /**
   * Opens (or creates) the outbox in `options.dir` and takes its lock. Reads
   * every segment once to count records; a malformed trailing record left by
   * a crash in the newest segment is truncated here, once.
   *
   * @throws InvalidOutboxOptionsError (`WEFT_INVALID_OPTIONS`) naming the bad option
   * @throws OutboxLockedError (`WEFT_OUTBOX_LOCKED`) when another live process holds the folder
   * @throws OutboxOpenFailedError (`WEFT_OUTBOX_OPEN_FAILED`) when the folder or lock file cannot be created
   * @throws OutboxReadFailedError (`WEFT_OUTBOX_READ_FAILED`) when a segment cannot be read
   */
  static async open(options: OutboxOptions): Promise<Outbox> {
    const resolved = resolveOutboxOptions(options);
    const fs = resolved.fileSystem;
    let dir = resolve(resolved.dir);
    let lock: OutboxLock;
    try {
      await fs.mkdir(dir, { recursive: true });
      // One name per folder, so two paths to it (a symlink) still meet at the same lock.
      dir = await realpath(dir).catch(() => dir);
      lock = await acquireOutboxLock(fs, dir);
    } catch (error) {
      throw WeftError.isInstance(error) ? error : new OutboxOpenFailedError(dir, error);
    }
    try {
      const warnings = new WarningLimiter(resolved.warningIntervalMs, resolved.onWarning);
      const recovered = await recoverSegments(fs, dir, resolved.fsync !== 'never', (problem) =>
        reportRecoveryProblem(warnings, problem),
      );
      const outbox = new Outbox(resolved, dir, lock, warnings, recovered);
      debug(
        'outbox: opened %s: %d segment(s), %d record(s)',
        dir,
        recovered.segments.length,
        outbox.stats.records,
      );
      if (recovered.tail && recovered.tail.info.bytes >= resolved.segmentBytes) await outbox.#closeSegment();
      return outbox;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** The absolute folder of this outbox. */
  get dir(): string {
    return this.#dir;
  }

  /**
   * Appends `records` (opaque bytes, in order; a record given as an array of
   * parts is stored as their concatenation). Returns at once; the write
   * happens later through one serialized writer, and the promise resolves when
   * the records are durable per the `fsync` policy. Do not mutate the bytes
   * before it settles.
   *
   * @throws OutboxWriteFailedError (`WEFT_OUTBOX_WRITE_FAILED`) when the disk
   *   write or its fsync fails; `recordsNotWritten` says how many the caller
   *   still owns. What was written before is never damaged.
   * @throws OutboxInvalidRecordError (`WEFT_OUTBOX_INVALID_RECORD`) for records
   *   that are not a `Uint8Array` (or an array of them) or exceed `maxBytes`; the others ARE written.
   * @throws OutboxClosedError (`WEFT_OUTBOX_CLOSED`) after `close()`.
   */
  append(records: readonly RecordPayload[]): Promise<void> {
    if (this.#closing) return Promise.reject(new OutboxClosedError(this.#dir, 'append'));
    const valid: RecordPayload[] = [];
    const invalid: number[] = [];
    for (const [index, record] of records.entries()) {
      if (isRecordPayload(record) && payloadBytes(record) <= this.#maxRecordBytes) valid.push(record);
      else invalid.push(index);
    }
    return new Promise<void>((resolvePromise, rejectPromise) => {
      this.#pending.push({
        records: valid,
        invalid,
        written: 0,
        failure: undefined,
        resolve: resolvePromise,
        reject: rejectPromise,
      });
      this.#scheduleRound();
    });
  }

  /**
   * Replays oldest-first: closes the segment being written, then reads the
   * closed segments in order and calls `send` with up to `batchRecords`
   * records (and about `maxBatchBytes`) at a time, never mixing segments in a
   * batch. Stops at the first batch `send` does not acknowledge (resolves
   * `false` or rejects) and keeps it and everything after. A segment file is
   * deleted only once every record in it was acknowledged. Calling again
   * resumes after the last acknowledged record in this process; after a
   * restart a partially acknowledged segment is sent again from its start
   * (the server's upserts are idempotent).
   *
   * Appends may continue meanwhile; their records are kept for the next
   * replay. Only one replay runs at a time: a call during a replay joins it
   * (its own `send` is not used).
   *
   * @throws OutboxReadFailedError (`WEFT_OUTBOX_READ_FAILED`) when a segment cannot be read; nothing is lost
   * @throws OutboxClosedError (`WEFT_OUTBOX_CLOSED`) after `close()`.
   */
  replay(send: ReplaySend, options: ReplayOptions = {}): Promise<ReplayResult> {
    if (this.#closing) return Promise.reject(new OutboxClosedError(this.#dir, 'replay'));
    if (this.#replaying) return this.#replaying;
    let resolvedOptions: Required<ReplayOptions>;
    try {
      resolvedOptions = resolveReplayOptions(options);
    } catch (error) {
      return Promise.reject(error);
    }
    const run = this.#resource.runInAsyncScope(() => this.#replay(send, resolvedOptions));
    this.#replaying = run.finally(() => {
      this.#replaying = undefined;
    });
    return this.#replaying;
  }

  /**
   * Two counters that only grow: `written`, the records written to the files
   * by this instance (and found in them at open), and `settled`, how many of
   * those left the outbox since: acknowledged by a replay, or dropped (disk
   * bound, damage). Records are written, replayed and dropped oldest-first,
   * so every record written before `written` read `n` is settled once
   * `settled` reaches `n`: what a flush waits for.
   */
  get progress(): { written: number; settled: number } {
    return { written: this.#written, settled: this.#settled };
  }

  /**
   * For a process `exit` only (no later turn will come): writes, synchronously
   * and into a segment file of its own, every record appended and not yet
   * written (the write round in progress included: a record it had written
   * already may be replayed twice, which upserts make harmless), then
   * `extra`. Returns how many records it wrote. Throws what the file system
   * throws.
   */
  writeOnExit(extra: readonly RecordPayload[] = []): number {
    const records: RecordPayload[] = [];
    for (const pending of [...this.#writing, ...this.#pending]) {
      for (let i = pending.written; i < pending.records.length; i++) records.push(pending.records[i]!);
    }
    for (const record of extra) if (isRecordPayload(record)) records.push(record);
    if (records.length === 0) return 0;
    writeSegmentSync(join(this.#dir, segmentFileName(this.#appender.reserveSequence())), records);
    this.#pending = [];
    this.#writing = [];
    return records.length;
  }

  /** Counts for diagnostics; cheap (no I/O). */
  get stats(): OutboxStats {
    let bytes = 0;
    let records = 0;
    for (const segment of this.#segments) {
      bytes += segment.bytes;
      records += segment.records - segment.ackedRecords;
    }
    let pendingRecords = 0;
    let pendingBytes = 0;
    for (const pending of this.#pending) {
      pendingRecords += pending.records.length;
      for (const record of pending.records) pendingBytes += payloadBytes(record);
    }
    return {
      segments: this.#segments.length,
      bytes,
      records,
      pendingRecords,
      pendingBytes,
      droppedRecords: this.#droppedRecords,
      writeFailures: this.#writeFailures,
    };
  }

  /**
   * Writes what was appended before the call, fsyncs (unless `fsync: 'never'`),
   * lets a running replay stop after its current batch, closes the file and
   * releases the lock. Idempotent: a second call joins the first.
   */
  close(): Promise<void> {
    this.#closing ??= this.#resource.runInAsyncScope(() => this.#close());
    return this.#closing;
  }

  async #close(): Promise<void> {
    await this.#replaying?.catch(noop);
    try {
      await this.#serial(async () => {
        const error = await this.#closeSegment();
        if (error !== undefined) this.#reportWriteFailure(error, 0);
      });
    } finally {
      this.#warnings.flush();
      await this.#lock.release();
    }
  }

  /** Runs `task` after every mutation queued before it. */
  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(task);
    this.#chain = run.then(noop, noop);
    return run;
  }

  #scheduleRound(): void {
    if (this.#roundScheduled) return;
    this.#roundScheduled = true;
    void this.#resource.runInAsyncScope(() =>
      this.#serial(async () => {
        // Appends arriving while this round writes schedule the next round.
        this.#roundScheduled = false;
        const round = this.#pending.splice(0);
        this.#writing = round;
        try {
          await this.#writeRound(round);
        } catch (error) {
          // A bug, not an I/O failure (those are handled per append): still settle every promise.
          for (const pending of round) pending.reject(error);
        } finally {
          this.#writing = [];
        }
      }),
    );
  }

  /**
   * Writes every append queued since the last round, then fsyncs once for all
   * of them (group commit), then settles their promises in order.
   */
  async #writeRound(round: PendingAppend[]): Promise<void> {
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
            `each record must be a Uint8Array (or an array of them) of at most ${this.#maxRecordBytes} bytes (maxBytes minus framing)`,
          ),
        );
      } else pending.resolve();
    }
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
        syncError ??= await this.#closeSegment();
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
      await this.#makeRoom(chunkBytes);
      try {
        const frames = encodeFrames(records, start, end, this.#frameMemory.take);
        await this.#appender.append(frames, end - start);
        this.#written += end - start;
        // Written (or cut off again after a failed write): nothing reads the frames any more.
        this.#frameMemory.release(frames);
      } catch (error) {
        pending.failure = this.#writeFailed(error, start, records.length - start);
        return syncError;
      }
      pending.written = end;
      if (segment.bytes >= segmentBytes) syncError ??= await this.#closeSegment();
    }
    return syncError;
  }

  /** The segment being written, started when there is none. */
  async #ensureSegment(): Promise<SegmentInfo> {
    const open = this.#appender.segment;
    if (open) return open;
    const started = await this.#appender.start();
    this.#segments.push(started);
    return started;
  }

  /** Closes the segment being written (fsync per policy); returns the fsync error. A segment with no record is deleted. */
  async #closeSegment(): Promise<unknown> {
    const closed = await this.#appender.close();
    if (closed === undefined) return undefined;
    if (closed.segment.records === 0) await this.#forget(closed.segment);
    return closed.syncError;
  }

  /** Deletes the oldest closed segments until `incomingBytes` more fit under `maxBytes`. */
  async #makeRoom(incomingBytes: number): Promise<void> {
    const { maxBytes } = this.#options;
    let droppedRecords = 0;
    let droppedSegments = 0;
    while (this.#segments.reduce((total, segment) => total + segment.bytes, 0) + incomingBytes > maxBytes) {
      const oldest = this.#segments[0];
      if (oldest === undefined || oldest === this.#appender.segment) break;
      droppedRecords += oldest.records - oldest.ackedRecords;
      droppedSegments++;
      await this.#forget(oldest);
    }
    if (droppedSegments === 0) return;
    this.#droppedRecords += droppedRecords;
    this.#settled += droppedRecords;
    this.#warnings.report('disk-bound', { droppedRecords, droppedSegments }, (counts, occurrences) => ({
      message:
        `Weft outbox ${this.#dir} reached maxBytes (${maxBytes} bytes): deleted the ${counts.droppedSegments} oldest ` +
        `segment(s) with ${counts.droppedRecords} unsent record(s)` +
        (occurrences > 1 ? ` over ${occurrences} writes since the last warning` : '') +
        '. Is the server reachable? Raise maxBytes to keep more.',
      details: { dir: this.#dir, maxBytes, totalDroppedRecords: this.#droppedRecords },
    }));
  }

  /** Drops a segment from the books and deletes its file (a replay reading it notices and moves on). */
  async #forget(segment: SegmentInfo): Promise<void> {
    const index = this.#segments.indexOf(segment);
    if (index === -1) return;
    this.#segments.splice(index, 1);
    try {
      await this.#options.fileSystem.unlink(segment.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        debug('outbox: could not delete %s: %s', segment.path, (error as Error).message);
      }
    }
  }

  #writeFailed(error: unknown, recordsWritten: number, recordsNotWritten: number): OutboxWriteFailedError {
    this.#reportWriteFailure(error, recordsNotWritten);
    return new OutboxWriteFailedError({ dir: this.#dir, recordsWritten, recordsNotWritten, cause: error });
  }

  #reportWriteFailure(error: unknown, recordsNotWritten: number): void {
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
   * A segment replayed to its end: deleted, or, when damaged bytes were
   * skipped in it (found at open, or now), renamed aside and reported.
   * Records open() counted that this replay did not find were damaged since
   * (bit rot, an edit): they are counted as dropped.
   */
  async #replayed(segment: SegmentInfo, damaged: readonly DamagedRange[]): Promise<void> {
    const lost = segment.records - segment.ackedRecords;
    if (lost > 0) {
      this.#droppedRecords += lost;
      this.#settled += lost;
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
      await this.#forget(segment);
      return;
    }
    this.#segments.splice(this.#segments.indexOf(segment), 1);
    try {
      await setSegmentAside(this.#options.fileSystem, segment, (problem) =>
        reportRecoveryProblem(this.#warnings, problem),
      );
    } catch (error) {
      debug('outbox: could not set %s aside: %s', segment.path, (error as Error).message);
    }
  }

  async #replay(send: ReplaySend, options: Required<ReplayOptions>): Promise<ReplayResult> {
    // Replay reads only closed segments: close the one being written so its records are included.
    await this.#serial(async () => {
      if ((this.#appender.segment?.records ?? 0) > 0) {
        const error = await this.#closeSegment();
        if (error !== undefined) this.#reportWriteFailure(error, 0);
      }
    });
    let sent = 0;
    const hooks = {
      fileSystem: this.#options.fileSystem,
      isKept: (segment: SegmentInfo) => this.#segments.includes(segment),
      shouldStop: () => this.#closing !== undefined,
      acknowledged: (records: number) => {
        this.#settled += records;
      },
    };
    for (;;) {
      const segment = this.#segments[0];
      if (this.#closing || segment === undefined || segment === this.#appender.segment) break;
      const outcome = await replaySegment(segment, send, options, hooks);
      sent += outcome.sent;
      if (outcome.kind === 'refused') {
        const result: ReplayResult = { sent, remaining: this.stats.records };
        if (outcome.error !== undefined) result.error = outcome.error;
        return result;
      }
      if (outcome.kind === 'interrupted') continue; // dropped for the disk bound meanwhile, or closing
      await this.#replayed(segment, outcome.end.damaged);
    }
    return { sent, remaining: this.stats.records };
  }
}
