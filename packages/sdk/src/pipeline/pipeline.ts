import type { CallRecord } from '../calls/index.js';
import { outsideCalls } from '../context/index.js';
import type { RecordValues, ValueDedup } from '../dedup/index.js';
import type { Warnings } from '../diagnostics/index.js';
import type { RecordOutcome } from '../transport/index.js';
import {
  encodeRecordIfSafe,
  materialize,
  releaseEncoded,
  type SanitizeOptions,
  Sanitizer,
  scrubStrings,
  snapshotBytes,
} from '../values/index.js';
import {
  callItem,
  failureMarker,
  type RecordKind,
  type RecordText,
  recordParts,
  type WalkedParts,
} from './call-item.js';
import { encodeCallItem } from './encode-call-item.js';
import type { Backlog } from './backlog.js';
import type { Epoch, FlushBarrier } from './flush-barrier.js';
import { type Pool, SLICE, yieldTurn } from './pool.js';
import { TurnEndQueue } from './turn-end-queue.js';
import { NO_SECRETS, recordText, releaseValues, type TextSource } from './record-text.js';

/**
 * Where finished records go: the transport's Batcher (or, in tests, any sink
 * with the same contract). A record's `bytes` stay valid until its `done` is
 * called; then their memory may be reused for later records, so a sink that
 * keeps them longer must copy them first.
 */
export interface RecordSink {
  add(record: { callId: string; bytes: Uint8Array; done: (outcome: RecordOutcome) => void }): void;
  flush(): Promise<void>;
}

export interface PipelineOptions {
  pool: Pool;
  barrier: FlushBarrier;
  warnings: Warnings;
  /** The batcher (the client's, or a test's sink). */
  sink: RecordSink;
  /** Sanitizer options (one object per epoch, so its validation is cached) whose `onObject` saves objects in `epoch`. */
  sanitizeOptions: (epoch: Epoch) => SanitizeOptions;
  sliceBudget: number;
  /** TEST ONLY: await pending digests inside the slot (the deadlock the design forbids). */
  awaitPendingInSlot: boolean;
  /** Sends large repeated values once (undefined: every record is sent whole). */
  dedup?: ValueDedup | undefined;
  /** Bytes of snapshots waiting for the pool (the pool reads it too); undefined: not counted. */
  backlog?: Backlog | undefined;
}

interface Job extends TextSource {
  readonly epoch: Epoch;
  /** What its snapshot keeps alive while it waits for the pool (see `Backlog`). */
  readonly bytes: number;
}

/**
 * An output snapshot this large (its characters and slots) is encoded at the
 * end of the caller's turn instead of waiting for the pool: its strings are
 * the young garbage that, left waiting, the collector copies and promotes.
 * At most a pool slice's records (`SLICE.records`) per turn: the rest of a
 * synchronous burst of large calls goes to the pool, which yields between slices.
 */
export const LARGE_OUTPUT_BYTES = 16 * 1024;

/** A record whose large values are still in it (the Sanitizer's encoder does not deduplicate). */
const NOT_DEDUPLICATED = Symbol('not deduplicated');

/**
 * The deferred half of tracing:
 *
 * ```
 * submit (caller's turn: O(1) push)
 *   └─ next turn: pool.run(schedule)
 *        schedule: walk inputs/output with the Sanitizer in slices (yield between)
 *                  ├─ no pending refs ─► finalize now
 *                  └─ pending refs ────► Promise.all(pending).then(() => pool.run(finalize)); return
 *        finalize: encode the item once ─► sink.add ─► done(outcome) settles the barrier unit
 * ```
 */
export class Pipeline {
  readonly #o: PipelineOptions;
  #intake: Job[] = [];
  #drainScheduled = false;
  /**
   * Records with a large output (see {@link LARGE_OUTPUT_BYTES}), encoded
   * once the caller's code in this turn has run. Only the one-pass encode is
   * tried here; a record that needs the Sanitizer's walk goes to the pool.
   */
  readonly #largeOutputs = new TurnEndQueue<Job>(
    (job) => {
      this.#pickUp(job);
      if (!this.#encodeFast(job)) this.#o.pool.run(this.#walkJob, job, job.bytes);
    },
    (error) => this.#o.warnings.report('pool', 'a pipeline task failed', error),
  );
  #urgent = 0;
  #sinkFlushScheduled = false;
  #scheduled = 0;
  #finalized = 0;

  constructor(options: PipelineOptions) {
    this.#o = options;
  }

  get stats() {
    const waiting = this.#o.backlog?.stats ?? { bytes: 0, peakBytes: 0 };
    return {
      intake: this.#intake.length,
      scheduled: this.#scheduled,
      finalized: this.#finalized,
      waitingBytes: waiting.bytes,
      peakWaitingBytes: waiting.peakBytes,
    };
  }

  /**
   * Caller's turn: registers the record in the flush barrier and queues it.
   * Constant work; the pool picks it up on a later turn, so `finishCall`
   * returns before any deferred work runs.
   */
  submit(call: CallRecord, kind: RecordKind): void {
    const epoch = this.#o.barrier.register();
    const outputBytes = kind === 'start' ? 0 : snapshotBytes(call.output);
    const bytes = (kind === 'end' ? 0 : snapshotBytes(call.inputs)) + outputBytes;
    this.#o.backlog?.add(bytes);
    const job = { call, kind, epoch, bytes };
    if (outputBytes >= LARGE_OUTPUT_BYTES && this.#largeOutputs.pending < SLICE.records) {
      this.#largeOutputs.push(job);
      return;
    }
    this.#intake.push(job);
    if (!this.#drainScheduled) {
      this.#drainScheduled = true;
      outsideCalls(() => setImmediate(this.#drain));
    }
  }

  /** While a flush waits, records are pushed to the server as they are finalized instead of waiting for the batch interval. */
  beginUrgent(): void {
    this.#urgent++;
    this.#flushSinkSoon();
  }

  endUrgent(): void {
    this.#urgent--;
  }

  readonly #scheduleJob = (job: Job): Promise<void> | undefined => this.#schedule(job);

  #drain = (): void => {
    this.#drainScheduled = false;
    const jobs = this.#intake;
    this.#intake = [];
    for (const job of jobs) this.#o.pool.run(this.#scheduleJob, job, job.bytes);
  };

  /**
   * Encodes the record in one pass (see {@link Pipeline.encodeFast}), or
   * walks its values. Synchronous when the walk fits one slice (a small
   * record: no promise, no extra turn); otherwise it returns the promise of
   * the sliced rest, which holds the slot between slices.
   */
  #schedule(job: Job): Promise<void> | undefined {
    this.#pickUp(job);
    return this.#encodeFast(job) ? undefined : this.#walk(job);
  }

  /** Counts a record as picked up: its snapshot no longer waits. */
  #pickUp(job: Job): void {
    this.#scheduled++;
    this.#o.backlog?.remove(job.bytes);
  }

  /**
   * The snapshot is our own copy: when it is already in its safe form (the
   * common case), one pass checks and encodes the whole record instead of
   * walking it into a second copy. Bounded by one slice of nodes; larger
   * values take the sliced walk. It succeeds only when nothing in the record
   * is redacted and there is no `redact` function (which then is asked once,
   * by the walk), so its free text needs only the secrets of values outside
   * the record (an end record's inputs). Large values are deduplicated as
   * they are written (see EncodeTimeDedup). False: the record needs the walk.
   */
  #encodeFast(job: Job): boolean {
    const encoding = this.#o.dedup?.encoding;
    let bytes: Uint8Array | undefined;
    try {
      const options = this.#o.sanitizeOptions(job.epoch);
      if (options.redact !== undefined) return false;
      const item = callItem(job.kind, job.call, recordParts(job), this.#text(job, NO_SECRETS));
      encoding?.begin();
      bytes = encodeRecordIfSafe(item, options, this.#o.sliceBudget, encoding);
    } catch {
      // The walk meets the same value and reports it (or gets past it).
      bytes = undefined;
    }
    if (bytes === undefined) {
      encoding?.abort();
      return false;
    }
    this.#deliver(job, bytes, encoding === undefined ? NOT_DEDUPLICATED : encoding.finish());
    return true;
  }

  readonly #walkJob = (job: Job): Promise<void> | undefined => this.#walk(job);

  /** Walks the record's values with the Sanitizer, in slices when they are large. */
  #walk(job: Job): Promise<void> | undefined {
    let sanitizer: Sanitizer;
    try {
      const value = recordParts(job);
      const options = this.#o.sanitizeOptions(job.epoch);
      // The walk reads containers, not tapes.
      sanitizer = new Sanitizer(
        {
          inputs: materialize(value.inputs),
          attributes: value.attributes,
          output: materialize(value.output),
        },
        options,
      );
      if (!sanitizer.step(this.#o.sliceBudget)) return this.#walkSliced(job, sanitizer);
    } catch (error) {
      this.#walkFailed(job, error);
      return undefined;
    }
    return this.#walked(job, sanitizer);
  }

  async #walkSliced(job: Job, sanitizer: Sanitizer): Promise<void> {
    try {
      do await yieldTurn();
      while (!sanitizer.step(this.#o.sliceBudget));
    } catch (error) {
      this.#walkFailed(job, error);
      return;
    }
    await this.#walked(job, sanitizer);
  }

  #walkFailed(job: Job, error: unknown): void {
    const { call } = job;
    this.#o.warnings.report(
      'schedule',
      `walking the values of call ${call.opName} failed; sent with an error marker`,
      error,
      call.id,
    );
    const marker = failureMarker('walk', error);
    this.#finalize(job, { inputs: { _weft_error: marker }, output: marker }, NO_SECRETS);
  }

  #walked(job: Job, sanitizer: Sanitizer): Promise<void> | undefined {
    const pending = sanitizer.pending;
    if (pending.length === 0) {
      this.#finalize(job, sanitizer.result as WalkedParts, sanitizer.redactedStrings);
      return undefined;
    }
    if (this.#o.awaitPendingInSlot) {
      // DELIBERATELY BROKEN (test-only option): holding the slot while waiting
      // for digests other pool tasks produce deadlocks a small pool.
      return Promise.all(pending).then(() =>
        this.#finalize(job, sanitizer.result as WalkedParts, sanitizer.redactedStrings),
      );
    }
    // INVARIANT: a slot never awaits a digest that another slot produces.
    // Chain finalize as a new pool task and return, releasing this slot at
    // once; with one slot and nested objects, awaiting here would deadlock.
    void Promise.all(pending).then(() =>
      this.#o.pool.run(() => this.#finalize(job, sanitizer.result as WalkedParts, sanitizer.redactedStrings)),
    );
    return undefined;
  }

  /** The record's free text, redacted like its values (see `recordText`). */
  #text(job: Job, walkSecrets: readonly string[]): RecordText & { secrets: readonly string[] } {
    return recordText(job, this.#o.sanitizeOptions(job.epoch), walkSecrets);
  }

  #finalize(job: Job, parts: WalkedParts, walkSecrets: readonly string[]): void {
    const { call, kind, epoch } = job;
    let bytes: Uint8Array;
    try {
      const text = this.#text(job, walkSecrets);
      if (text.secrets.length > 0) {
        // A secret redacted under one key is not left verbatim in another value of the call.
        parts.inputs = scrubStrings(parts.inputs, text.secrets);
        parts.output = scrubStrings(parts.output, text.secrets);
        scrubStrings(parts.attributes, text.secrets);
      }
      try {
        bytes = encodeCallItem(callItem(kind, call, parts, text));
      } catch (error) {
        this.#o.warnings.report(
          'encode',
          `encoding call ${call.opName} failed; sent with error markers`,
          error,
          call.id,
        );
        const marker = failureMarker('encode', error);
        bytes = encodeCallItem(
          callItem(kind, call, { inputs: { _weft_error: marker }, output: marker }, text),
        );
      }
    } catch (error) {
      this.#o.warnings.report(
        'encode',
        `call ${call.opName} could not be encoded at all; it is lost`,
        error,
        call.id,
      );
      releaseValues(call, kind);
      this.#o.barrier.settle(epoch, 'failed', kind === 'start' ? 'other' : 'call');
      return;
    }
    this.#deliver(job, bytes, NOT_DEDUPLICATED);
  }

  /**
   * Hands one encoded record to the sink; its outcome settles the record's
   * unit in the flush barrier. `values`: the large values the encoder
   * already replaced in `bytes` (`undefined`: none), or
   * {@link NOT_DEDUPLICATED} for a record to deduplicate now.
   */
  #deliver(job: Job, bytes: Uint8Array, values: RecordValues | undefined | typeof NOT_DEDUPLICATED): void {
    const { call, kind, epoch } = job;
    this.#finalized++;
    releaseValues(call, kind);
    // The record waits in the batcher until the server acknowledges it: it
    // must hold only its bytes and these few strings, not the call (whose
    // snapshot would then outlive the young generation — every minor GC
    // during a burst copied thousands of such snapshots, 10–20 ms each).
    const { id, opName } = call;
    const unit = kind === 'start' ? 'other' : 'call';
    const record = {
      callId: id,
      bytes,
      done: (outcome: RecordOutcome) => {
        releaseEncoded(bytes);
        if (outcome.status === 'failed') {
          this.#o.warnings.report('transport', `call ${opName} was not delivered`, outcome.error, id);
        }
        this.#o.barrier.settle(epoch, outcome.status, unit);
      },
    };
    // Deduplicated, the record's bytes stay in use (its values are read from
    // them) until its last value item settles; `done` is called after that.
    if (values === undefined || !this.#dedup(record, values)) this.#o.sink.add(record);
    if (this.#urgent > 0) this.#flushSinkSoon();
  }

  /** Hands `record` to the sink deduplicated; false when it is to be added as it is. */
  #dedup(
    record: { callId: string; bytes: Uint8Array; done: (outcome: RecordOutcome) => void },
    values: RecordValues | typeof NOT_DEDUPLICATED,
  ): boolean {
    const { dedup } = this.#o;
    if (dedup === undefined) return false;
    try {
      return dedup.deliver(this.#o.sink, record, values === NOT_DEDUPLICATED ? undefined : values);
    } catch (error) {
      // A record the deduplicator cannot read is sent whole: nothing is lost.
      this.#o.warnings.report(
        'dedup',
        'deduplicating a record failed; it is sent whole',
        error,
        record.callId,
      );
      return false;
    }
  }

  /** At most one sink flush per turn while a flush waits. */
  #flushSinkSoon(): void {
    if (this.#sinkFlushScheduled) return;
    this.#sinkFlushScheduled = true;
    setImmediate(() => {
      this.#sinkFlushScheduled = false;
      this.#o.sink
        .flush()
        .catch((error: unknown) =>
          this.#o.warnings.report('transport', 'flushing the batcher failed', error),
        );
    });
  }
}
