import { AsyncResource } from 'node:async_hooks';
import { realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { debuglog } from 'node:util';
import { WeftError } from '@weft/protocol';
import { AppendWriter, type PendingAppend } from './append-writer.js';
import { OutboxClosedError, OutboxOpenFailedError } from './errors/index.js';
import { acquireOutboxLock, type OutboxLock } from './lock-file.js';
import {
  type OutboxOptions,
  type ReplayOptions,
  type ResolvedOutboxOptions,
  resolveOutboxOptions,
  resolveReplayOptions,
} from './outbox-options.js';
import type { OutboxStats } from './outbox-stats.js';
import { isRecordPayload, payloadBytes } from './record-frame.js';
import { recoverSegments } from './recover-segments.js';
import { replaySegment } from './replay-segment.js';
import { reportRecoveryProblem } from './report-recovery-problem.js';
import { SegmentAppender } from './segment-appender.js';
import { SegmentBooks } from './segment-books.js';
import { type SegmentInfo, segmentFileName } from './segment-file.js';
import { writeSegmentSync } from './write-on-exit.js';
import { WarningLimiter } from '../diagnostics/index.js';
import type { RecordPayload } from '../transport/index.js';

const debug = debuglog('weft');
const noop = () => undefined;

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
 *
 * The parts: `AppendWriter` writes the rounds (append-writer.ts),
 * `SegmentBooks` keeps the files and what became of their records
 * (segment-books.ts), `replaySegment` reads one segment back (replay-segment.ts).
 */
export class Outbox {
  readonly #options: ResolvedOutboxOptions;
  readonly #dir: string;
  readonly #lock: OutboxLock;
  readonly #warnings: WarningLimiter;
  /** Work runs in the context `open()` was called in, never in a caller's traced context. */
  readonly #resource = new AsyncResource('WeftOutbox');
  readonly #books: SegmentBooks;
  readonly #appender: SegmentAppender;
  readonly #writer: AppendWriter;
  #pending: PendingAppend[] = [];
  /** The appends the write round in progress is writing (taken out of `#pending`). */
  #writing: PendingAppend[] = [];
  #roundScheduled = false;
  /** Every file mutation runs on this chain, one at a time. */
  #chain: Promise<unknown> = Promise.resolve();
  #replaying: Promise<ReplayResult> | undefined;
  #closing: Promise<void> | undefined;

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
    this.#books = new SegmentBooks(options.fileSystem, dir, options.maxBytes, warnings, recovered.segments);
    this.#appender = new SegmentAppender(
      options.fileSystem,
      dir,
      options.fsync,
      recovered.nextSequence,
      recovered.tail,
    );
    this.#writer = new AppendWriter(options, dir, this.#books, this.#appender, warnings);
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
      if (recovered.tail && recovered.tail.info.bytes >= resolved.segmentBytes)
        await outbox.#writer.closeSegment();
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
      if (isRecordPayload(record) && payloadBytes(record) <= this.#writer.maxRecordBytes) valid.push(record);
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
    return { written: this.#books.written, settled: this.#books.settled };
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
    let pendingRecords = 0;
    let pendingBytes = 0;
    for (const pending of this.#pending) {
      pendingRecords += pending.records.length;
      for (const record of pending.records) pendingBytes += payloadBytes(record);
    }
    return {
      ...this.#books.counts(),
      pendingRecords,
      pendingBytes,
      droppedRecords: this.#books.droppedRecords,
      writeFailures: this.#writer.writeFailures,
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
        const error = await this.#writer.closeSegment();
        if (error !== undefined) this.#writer.reportWriteFailure(error, 0);
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
          await this.#writer.writeRound(round);
        } catch (error) {
          // A bug, not an I/O failure (those are handled per append): still settle every promise.
          for (const pending of round) pending.reject(error);
        } finally {
          this.#writing = [];
        }
      }),
    );
  }

  async #replay(send: ReplaySend, options: Required<ReplayOptions>): Promise<ReplayResult> {
    // Replay reads only closed segments: close the one being written so its records are included.
    await this.#serial(async () => {
      if ((this.#appender.segment?.records ?? 0) > 0) {
        const error = await this.#writer.closeSegment();
        if (error !== undefined) this.#writer.reportWriteFailure(error, 0);
      }
    });
    let sent = 0;
    const hooks = {
      fileSystem: this.#options.fileSystem,
      isKept: (segment: SegmentInfo) => this.#books.holds(segment),
      shouldStop: () => this.#closing !== undefined,
      acknowledged: (records: number) => {
        this.#books.settled += records;
      },
    };
    for (;;) {
      const segment = this.#books.oldest;
      if (this.#closing || segment === undefined || segment === this.#appender.segment) break;
      const outcome = await replaySegment(segment, send, options, hooks);
      sent += outcome.sent;
      if (outcome.kind === 'refused') {
        const result: ReplayResult = { sent, remaining: this.stats.records };
        if (outcome.error !== undefined) result.error = outcome.error;
        return result;
      }
      if (outcome.kind === 'interrupted') continue; // dropped for the disk bound meanwhile, or closing
      await this.#books.replayed(segment, outcome.end.damaged);
    }
    return { sent, remaining: this.stats.records };
  }
}
