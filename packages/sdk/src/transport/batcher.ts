import { routes, type WeftError } from '@weft/protocol';
import { WarningLimiter } from '../diagnostics/index.js';
import type { SendResult } from './api-client.js';
import { backoffDelayMs } from './backoff.js';
import { rejectionVerdict, type RetryPolicy, retryVerdict, splitInHalves } from './delivery-rules.js';
import { ReusableBytes } from '../memory/index.js';
import { batchBodyPrefix, batchOverheadBytes, encodeBatchBody } from './batch-body.js';
import { BatchFill } from '../batching/index.js';
import { type BatcherOptions, type BatcherOptionsParsed, batcherOptionsSchema } from './batcher-options.js';
import type { CircuitBreaker, CircuitState } from './circuit-breaker.js';
import { serverCircuit } from './server-circuit.js';
import { outboxRecordPrefix } from './outbox-records.js';
import { parseOptions } from './parse-options.js';
import { systemTimers, type Timers } from './timers.js';
import {
  BatcherClosedError,
  DeliveryFailedError,
  InvalidRecordError,
  OutboxWriteError,
  RecordRejectedError,
  RecordTooLargeError,
} from './transport-errors.js';
import { publishTransportEvent } from './transport-events.js';

/** Why records go to the outbox at {@link Batcher.spillHeld}. */
const FALLBACK_REASON = "a flush's deadline came before the server took them";

/** Most record bytes spilled to the outbox in one turn when the in-memory queue is full. */
const SPILL_BYTES_PER_TURN = 2 * 1024 * 1024;

export type { BatcherOptions, BatcherOutbox } from './batcher-options.js';
import type { RecordPayload } from './batcher-options.js';

/** One encoded call item handed to the batcher by the pipeline. */
export interface CallRecord {
  /** Call id (for reporting). */
  callId: string;
  /** msgpack bytes of ONE protocol call item (`{ type: 'start' | 'end' | 'complete', … }`); never re-encoded here. */
  bytes: Uint8Array;
  /** Called exactly once per record with its final outcome. */
  done: (outcome: RecordOutcome) => void;
}

/**
 * `sent`: the server acknowledged it (`missingValues`: deduplicated values
 * the batch referred to that the server lacks, from its answer). `spilled`:
 * it is durably in the outbox. `failed`: it is lost, and `error` says why.
 */
export type RecordOutcome =
  | { status: 'sent'; missingValues?: readonly string[] }
  | { status: 'spilled' }
  | { status: 'failed'; error: WeftError };

interface Entry {
  record: CallRecord;
  /** Position in add order; `flush()` waits for every entry below its mark. */
  seq: number;
  /** Counted in the in-memory bound (false for records spilled straight from `add`). */
  held: boolean;
  settled: boolean;
}

interface Batch {
  entries: Entry[];
  /** Requests made for these entries that failed retryably. */
  attempts: number;
}

interface FlushWaiter {
  /** Entries with `seq` below this count. */
  mark: number;
  remaining: number;
  resolve: () => void;
}

const SENT: RecordOutcome = { status: 'sent' };
const SPILLED: RecordOutcome = { status: 'spilled' };

/**
 * Collects encoded call records into `callBatch` requests bounded by count,
 * bytes and time, and sees each record to exactly one outcome: sent, spilled to
 * the outbox, or failed with a reported reason. Never drops a record silently,
 * never blocks or throws into the caller.
 *
 * ```
 * add ─► queue ─► pump ─┬─ circuit closed ─► deliver: POST ─┬ 2xx ─────────────► sent
 *   │  (count, bytes,   │                      ▲            ├ 408/429/5xx/net ─► backoff, retry
 *   │   interval, flush)│                      └────────────┤   (maxAttempts ──► outbox | failed)
 *   │                   │                                   ├ 400 + index ─────► that record failed, rest again
 *   │                   │                                   ├ 400 / 413 ───────► split in halves
 *   │                   │                                   └ 401/403/other ───► outbox | failed
 *   │                   └─ circuit open ───► outbox (or wait in memory without one)
 *   └─ over maxQueueBytes ─────────────────► outbox (or failed without one)
 * ```
 */
export class Batcher {
  #options: BatcherOptionsParsed;
  #timers: Timers;
  #random: () => number;
  #prefix: Uint8Array;
  #batchBudgetBytes: number;
  /** Body memory for each batch that may be in flight, and one more. */
  readonly #bodyMemory: ReusableBytes;
  /** What precedes an item in this project's outbox records. */
  readonly #outboxPrefix: Uint8Array;
  #circuit: CircuitBreaker;
  /** Whether this batcher made its circuit (and disposes of it on close) or shares the client's. */
  readonly #ownsCircuit: boolean;
  readonly #unsubscribe: () => void;
  #warnings: WarningLimiter;

  /** Queued entries are `#queue[#head…]`; the consumed front is dropped in chunks, keeping `add` O(1). */
  #queue: Entry[] = [];
  #head = 0;
  #queuedBytes = 0;
  #heldBytes = 0;
  #overflow: Entry[] = [];
  /** Records the outbox refused (disk full) while they still fit in memory; retried after a backoff. */
  #parked: Entry[] = [];
  #unparkTimer: unknown;
  #unparkAttempts = 0;
  #overflowScheduled = false;

  #seq = 0;
  #outstanding = 0;
  #urgentMark = 0;
  /** Records added before this mark go to the outbox instead of (again) to the server: a flush's deadline is near. */
  #fallbackMark = 0;
  #intervalTimer: unknown;
  #intervalDue = false;
  #pumpScheduled = false;
  #activeBatches = 0;
  #retrying = 0;
  #sleepers = new Set<() => void>();
  #waiters: FlushWaiter[] = [];
  /** Batches being delivered (a request out, or waiting to retry), with the parts they were split into. */
  readonly #delivering = new Set<{ work: Batch[]; current: Batch | undefined }>();
  /** Records handed to the outbox whose append has not settled. */
  readonly #spilling = new Set<Entry[]>();
  #closed = false;
  #closing: Promise<void> | undefined;
  #counts = { sent: 0, spilled: 0, failed: 0, retries: 0 };

  constructor(options: BatcherOptions) {
    this.#options = parseOptions('Batcher', batcherOptionsSchema, options);
    const { project, backoff, circuitFailureThreshold, client, onWarning } = this.#options;
    this.#timers = this.#options.timers ?? systemTimers;
    this.#random = (this.#options.random as (() => number) | undefined) ?? Math.random;
    this.#prefix = batchBodyPrefix(project);
    this.#batchBudgetBytes = this.#options.maxBatchBytes - batchOverheadBytes(this.#prefix);
    this.#bodyMemory = new ReusableBytes(this.#options.maxConcurrentBatches + 1, this.#options.maxBatchBytes);
    this.#outboxPrefix = outboxRecordPrefix(this.#options.project);
    const emit = (onWarning as BatcherOptions['onWarning']) ?? defaultWarning;
    this.#warnings = new WarningLimiter(60_000, emit);
    this.#ownsCircuit = this.#options.circuit === undefined;
    this.#circuit =
      this.#options.circuit ??
      serverCircuit(client, {
        failureThreshold: circuitFailureThreshold,
        backoff,
        timers: this.#timers,
        random: this.#random,
      });
    this.#unsubscribe = this.#circuit.subscribe((state, previous) => this.#circuitChanged(state, previous));
  }

  /** Queues one record. O(1), synchronous, never throws; the record's `done` is called later, once. */
  add(record: CallRecord): void {
    const entry: Entry = { record, seq: this.#seq++, held: false, settled: false };
    this.#outstanding += 1;
    if (this.#closed) {
      this.#settle(entry, { status: 'failed', error: new BatcherClosedError() });
      return;
    }
    if (!(record.bytes instanceof Uint8Array) || record.bytes.byteLength === 0) {
      this.#fail(entry, new InvalidRecordError(record.callId));
      return;
    }
    const size = record.bytes.byteLength;
    if (this.#heldBytes + size > this.#options.maxQueueBytes) {
      // Over the memory bound: to disk, in one append per turn, never on the caller's turn.
      this.#overflow.push(entry);
      if (!this.#overflowScheduled) {
        this.#overflowScheduled = true;
        setImmediate(() => this.#spillOverflow());
      }
      return;
    }
    entry.held = true;
    this.#heldBytes += size;
    this.#queuedBytes += size;
    this.#queue.push(entry);
    if (this.#queue.length - this.#head === 1) this.#armInterval();
    if (
      this.#queue.length - this.#head >= this.#options.maxBatchItems ||
      this.#queuedBytes >= this.#batchBudgetBytes
    ) {
      this.#schedulePump();
    }
  }

  /**
   * Resolves when every record added before this call has an outcome (sent,
   * spilled or failed). Sends queued records at once instead of waiting for
   * the interval. Without an outbox, while the circuit is open it waits for
   * the server to come back (callers bound it with their own deadline).
   */
  flush(): Promise<void> {
    if (this.#outstanding === 0) return Promise.resolve();
    this.#urgentMark = this.#seq;
    const promise = new Promise<void>((resolve) =>
      this.#waiters.push({ mark: this.#seq, remaining: this.#outstanding, resolve }),
    );
    this.#pump();
    return promise;
  }

  /**
   * The fallback at a flush's deadline: every record added before this call
   * that is not acknowledged yet — queued, waiting to retry, or in a request
   * that fails — goes to the outbox instead of (again) to the server. A
   * request already out may still succeed; its records are then sent (and,
   * if they were spilled meanwhile, replayed once more: ingest is an
   * idempotent upsert). Without an outbox it does nothing: records wait.
   */
  spillHeld(): void {
    if (this.#options.outbox === undefined || this.#outstanding === 0) return;
    this.#fallbackMark = this.#seq;
    this.#urgentMark = this.#seq;
    for (const wake of [...this.#sleepers]) wake();
    this.#unpark();
    this.#pump();
  }

  /**
   * For a process `exit` only (no later turn will come): the records this
   * batcher holds that are not in an outbox append already — queued, over
   * the memory bound, parked, in a request or waiting to retry — as outbox
   * records, and `settle`, which reports every record not yet settled (these,
   * and those being appended) as spilled once the caller has written them.
   */
  heldOnExit(): { records: RecordPayload[]; settle: () => number } {
    const held = new Set<Entry>();
    const hold = (entries: readonly Entry[]) => {
      for (const entry of entries) if (!entry.settled) held.add(entry);
    };
    hold(this.#queue.slice(this.#head));
    hold(this.#overflow);
    hold(this.#parked);
    for (const { work, current } of this.#delivering) {
      if (current) hold(current.entries);
      for (const batch of work) hold(batch.entries);
    }
    for (const entries of this.#spilling) for (const entry of entries) held.delete(entry);
    return {
      records: [...held].map((entry) => this.#outboxRecord(entry)),
      settle: () => {
        let settled = 0;
        for (const entries of [...this.#spilling, [...held]]) {
          for (const entry of entries) {
            if (entry.settled) continue;
            this.#settle(entry, SPILLED);
            settled += 1;
          }
        }
        return settled;
      },
    };
  }

  /** An entry as the outbox keeps it: [prefix, item bytes], parts the outbox frames without a concatenated copy. */
  #outboxRecord(entry: Entry): Uint8Array[] {
    return [this.#outboxPrefix, entry.record.bytes];
  }

  /** Diagnostics gauges and counters. */
  get stats(): {
    queuedRecords: number;
    queuedBytes: number;
    inFlightBatches: number;
    sent: number;
    spilled: number;
    failed: number;
    retries: number;
    circuit: CircuitState;
  } {
    return {
      queuedRecords: this.#queue.length - this.#head,
      queuedBytes: this.#queuedBytes,
      inFlightBatches: this.#activeBatches + this.#retrying,
      ...this.#counts,
      circuit: this.#circuit.state,
    };
  }

  /** Refuses new records, flushes the ones it has, then stops its timers. Idempotent: a second call joins the first. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      await this.flush();
      if (this.#intervalTimer !== undefined) this.#timers.clearTimeout(this.#intervalTimer);
      this.#unsubscribe();
      if (this.#ownsCircuit) this.#circuit.dispose();
      this.#warnings.flush();
    })();
    return this.#closing;
  }

  #armInterval(): void {
    if (this.#intervalTimer !== undefined || this.#intervalDue) return;
    this.#intervalTimer = this.#timers.setTimeout(() => {
      this.#intervalTimer = undefined;
      this.#intervalDue = true;
      this.#pump();
    }, this.#options.flushIntervalMs);
  }

  #schedulePump(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => this.#pump());
  }

  /** Starts as many batches as the bounds, the circuit and the send slots allow. */
  #pump(): void {
    this.#pumpScheduled = false;
    const { maxBatchItems, maxConcurrentBatches, outbox } = this.#options;
    while (this.#head < this.#queue.length) {
      const head = this.#queue[this.#head]!;
      const ready =
        this.#intervalDue ||
        this.#closed ||
        head.seq < this.#urgentMark ||
        this.#queue.length - this.#head >= maxBatchItems ||
        this.#queuedBytes >= this.#batchBudgetBytes;
      if (!ready) break;
      if (outbox !== undefined && head.seq < this.#fallbackMark) {
        this.#spill(this.#take().entries, FALLBACK_REASON);
        continue;
      }
      if (this.#circuit.state !== 'closed') {
        if (outbox === undefined) break; // held in memory; the circuit closing pumps again
        this.#spill(this.#take().entries, 'the circuit is open (the server kept failing)');
        continue;
      }
      if (this.#activeBatches >= maxConcurrentBatches) break;
      void this.#deliver(this.#take());
    }
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
      this.#intervalDue = false;
      if (this.#intervalTimer !== undefined) this.#timers.clearTimeout(this.#intervalTimer);
      this.#intervalTimer = undefined;
    } else {
      this.#armInterval();
    }
  }

  #take(): Batch {
    const entries: Entry[] = [];
    const fill = new BatchFill({ maxItems: this.#options.maxBatchItems, maxBytes: this.#batchBudgetBytes });
    while (this.#head < this.#queue.length) {
      const entry = this.#queue[this.#head]!;
      const size = entry.record.bytes.byteLength;
      // A record larger than the budget still travels, alone; the server's 413 decides its fate.
      if (!fill.fits(size)) break;
      entries.push(entry);
      fill.add(size);
      this.#head += 1;
    }
    this.#queuedBytes -= fill.bytes;
    if (this.#head > 4096 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    return { entries, attempts: 0 };
  }

  /**
   * Sees one batch (and the parts it may be split into) to an outcome. Holds a
   * send slot while a request is out; gives it up while waiting to retry so
   * other batches keep flowing, within the retry budget.
   */
  async #deliver(first: Batch): Promise<void> {
    const { client, outbox } = this.#options;
    const work: Batch[] = [first];
    let current: Batch | undefined;
    const live = { work, current: undefined as Batch | undefined };
    this.#delivering.add(live);
    this.#activeBatches += 1;
    let holdingSlot = true;
    try {
      while (work.length > 0) {
        const batch = work.pop()!;
        current = batch;
        live.current = batch;
        if (outbox !== undefined && batch.entries[0]!.seq < this.#fallbackMark) {
          this.#spill(batch.entries, FALLBACK_REASON);
          continue;
        }
        if (this.#circuit.state !== 'closed') {
          if (outbox !== undefined) {
            this.#spill(batch.entries, 'the circuit is open (the server kept failing)');
            continue;
          }
          this.#activeBatches -= 1;
          holdingSlot = false;
          await this.#circuit.whenClosed();
          this.#activeBatches += 1;
          holdingSlot = true;
        }
        const body = encodeBatchBody(
          this.#prefix,
          batch.entries.map((entry) => entry.record.bytes),
          this.#bodyMemory.take,
        );
        const result = await client.post(routes.callBatch(), body);
        switch (result.status) {
          case 'sent': {
            this.#bodyMemory.release(body);
            this.#circuit.recordSuccess();
            const outcome = sentOutcome(result.body);
            for (const entry of batch.entries) this.#settle(entry, outcome);
            break;
          }
          case 'retryable': {
            this.#circuit.recordFailure();
            batch.attempts += 1;
            const retry = this.#retryDecision(batch, result);
            if (retry === undefined) break;
            this.#counts.retries += 1;
            this.#retrying += 1;
            publishTransportEvent({
              type: 'retry',
              project: this.#options.project,
              attempt: batch.attempts,
              delayMs: retry,
              records: batch.entries.length,
              reason: result.error.message,
            });
            // Within the budget the slot is free while waiting; past it (no outbox) the slot is kept.
            const keepSlot = this.#retrying > this.#options.maxRetriesInFlight;
            if (!keepSlot) {
              this.#activeBatches -= 1;
              holdingSlot = false;
              this.#schedulePump();
            }
            await this.#sleep(retry);
            this.#retrying -= 1;
            if (!holdingSlot) {
              // May briefly exceed maxConcurrentBatches: retries are bounded by the retry budget instead.
              this.#activeBatches += 1;
              holdingSlot = true;
            }
            work.push(batch);
            current = undefined;
            break;
          }
          case 'rejected':
            this.#circuit.recordSuccess(); // the server answered; it is up
            this.#rejected(batch, result, work);
            break;
        }
        current = undefined;
      }
    } catch (error) {
      // Unreachable by design (post never throws); if it happens, keep the records rather than lose them.
      const entries = [...(current?.entries ?? []), ...work.flatMap((batch) => batch.entries)];
      this.#warn('bug', `Weft transport hit an unexpected error: ${String(error)}`, {});
      this.#spill(entries, `an unexpected transport error (${String(error)})`);
    } finally {
      this.#delivering.delete(live);
      if (holdingSlot) this.#activeBatches -= 1;
      this.#schedulePump();
    }
  }

  /** The delay before retrying `batch`, or undefined when it went to the outbox (or failed) instead. */
  #retryDecision(batch: Batch, result: Extract<SendResult, { status: 'retryable' }>): number | undefined {
    const verdict = retryVerdict(
      result,
      {
        attempts: batch.attempts,
        hasOutbox: this.#options.outbox !== undefined,
        serverDown: this.#circuit.state !== 'closed',
        retrying: this.#retrying,
      },
      this.#options,
      this.#random,
    );
    if (verdict.action === 'retry') return verdict.delayMs;
    this.#spill(
      batch.entries,
      verdict.reason,
      batch.attempts >= this.#options.maxAttempts ? result.error : undefined,
    );
    return undefined;
  }

  /** A 4xx: isolate invalid records, split oversized batches, keep the rest (see `rejectionVerdict`). */
  #rejected(batch: Batch, result: Extract<SendResult, { status: 'rejected' }>, work: Batch[]): void {
    const { statusCode, index, error } = result;
    const verdict = rejectionVerdict(statusCode, index, batch.entries.length);
    switch (verdict.action) {
      case 'drop': {
        const [bad] = batch.entries.splice(verdict.index, 1);
        this.#fail(
          bad!,
          verdict.tooLarge
            ? new RecordTooLargeError(bad!.record.callId, bad!.record.bytes.byteLength, error)
            : new RecordRejectedError(bad!.record.callId, error),
        );
        if (batch.entries.length > 0) work.push(batch); // the rest, again at once
        return;
      }
      case 'split':
        for (const entries of splitInHalves(batch.entries)) work.push({ entries, attempts: batch.attempts });
        return;
      case 'keep':
        if (verdict.auth) {
          this.#warn(
            'auth',
            `The Weft server refused the credentials (${statusCode}); check WEFT_API_KEY (or init({ apiKey })). Records are kept in the outbox until it accepts them.`,
            { records: batch.entries.length },
          );
          this.#spill(batch.entries, `the server refused the credentials (${statusCode})`, error);
          return;
        }
        this.#warn('http', `The Weft server answered ${statusCode}: ${error.message}`, {
          records: batch.entries.length,
        });
        this.#spill(batch.entries, `the server answered ${statusCode} (${error.message})`, error);
    }
  }

  /** To the outbox; without one, failed with `reason`. Outcomes are reported when the append settles. */
  #spill(entries: Entry[], reason: string, cause?: unknown): void {
    if (entries.length === 0) return;
    const { outbox, project } = this.#options;
    if (outbox === undefined) {
      const error = new DeliveryFailedError(`Could not send ${entries.length} record(s): ${reason}`, cause);
      this.#warn('lost', error.message, { records: entries.length });
      for (const entry of entries) this.#settle(entry, { status: 'failed', error });
      return;
    }
    const records = entries.map((entry) => this.#outboxRecord(entry));
    let appending: Promise<void>;
    try {
      appending = outbox.append(records);
    } catch (error) {
      appending = Promise.reject(error);
    }
    this.#spilling.add(entries);
    appending
      .finally(() => this.#spilling.delete(entries))
      .then(
        () => {
          publishTransportEvent({ type: 'spill', project, records: entries.length, reason });
          this.#warn('spilled', `Weft records kept in the outbox: ${reason}`, { records: entries.length });
          for (const entry of entries) this.#settle(entry, SPILLED);
        },
        (error: unknown) => this.#outboxRefused(entries, error),
      );
  }

  /**
   * The outbox could not take `entries` (disk full, I/O error). The prefix it
   * did write is spilled; the rest stay in memory while the memory bound
   * allows and go round again after a backoff (or at once when the circuit
   * closes), so a full disk while the server is down costs memory, not calls.
   * Only what does not fit in memory is failed.
   */
  #outboxRefused(entries: Entry[], error: unknown): void {
    const written = Math.min(entries.length, writtenPrefix(error));
    for (const entry of entries.slice(0, written)) this.#settle(entry, SPILLED);
    const lost: Entry[] = [];
    for (const entry of entries.slice(written)) {
      const size = entry.record.bytes.byteLength;
      if (!entry.held && this.#heldBytes + size > this.#options.maxQueueBytes) {
        lost.push(entry);
        continue;
      }
      if (!entry.held) {
        entry.held = true;
        this.#heldBytes += size;
      }
      this.#parked.push(entry);
    }
    const parked = entries.length - written - lost.length;
    this.#warn(
      'outbox',
      `The outbox could not take ${entries.length - written} record(s) (${String(error)}); ${parked} kept in memory and retried, ${lost.length} past the memory bound lost.`,
      {
        records: entries.length - written,
      },
    );
    if (lost.length > 0) {
      const failure = new OutboxWriteError(lost.length, error);
      for (const entry of lost) this.#settle(entry, { status: 'failed', error: failure });
    }
    if (parked > 0) this.#armUnpark();
  }

  #armUnpark(): void {
    if (this.#unparkTimer !== undefined) return;
    const delay = backoffDelayMs(this.#unparkAttempts++, this.#options.backoff, this.#random);
    this.#unparkTimer = this.#timers.setTimeout(() => {
      this.#unparkTimer = undefined;
      this.#unpark();
    }, delay);
  }

  /** Parked records go back to the send queue: sent when the circuit is closed, offered to the outbox again when not. */
  #unpark(): void {
    if (this.#unparkTimer !== undefined) {
      this.#timers.clearTimeout(this.#unparkTimer);
      this.#unparkTimer = undefined;
    }
    const entries = this.#parked;
    if (entries.length === 0) return;
    this.#parked = [];
    for (const entry of entries) {
      this.#queue.push(entry);
      this.#queuedBytes += entry.record.bytes.byteLength;
    }
    this.#intervalDue = true;
    this.#schedulePump();
  }

  /**
   * Spills the records that did not fit in memory, at most
   * {@link SPILL_BYTES_PER_TURN} per turn (copying and checksumming them for
   * the outbox is main-thread work: a burst of large records spilled at once
   * held the event loop for tens of milliseconds).
   */
  #spillOverflow(): void {
    const overflow = this.#overflow;
    let bytes = 0;
    let n = 0;
    while (
      n < overflow.length &&
      (n === 0 || bytes + overflow[n]!.record.bytes.byteLength <= SPILL_BYTES_PER_TURN)
    ) {
      bytes += overflow[n]!.record.bytes.byteLength;
      n++;
    }
    const entries = n === overflow.length ? overflow : overflow.slice(0, n);
    this.#overflow = n === overflow.length ? [] : overflow.slice(n);
    if (this.#overflow.length > 0) setImmediate(() => this.#spillOverflow());
    else this.#overflowScheduled = false;
    this.#spill(entries, `the in-memory queue is full (maxQueueBytes = ${this.#options.maxQueueBytes})`);
  }

  #fail(entry: Entry, error: WeftError): void {
    this.#warn('rejected', error.message, { records: 1 });
    this.#settle(entry, { status: 'failed', error });
  }

  #settle(entry: Entry, outcome: RecordOutcome): void {
    if (entry.settled) return;
    entry.settled = true;
    if (entry.held) this.#heldBytes -= entry.record.bytes.byteLength;
    this.#counts[outcome.status] += 1;
    this.#outstanding -= 1;
    if (this.#outstanding === 0 && outcome.status === 'sent')
      this.#tell('queueDrained', () => this.#options.outbox?.queueDrained?.());
    if (outcome.status === 'failed') {
      publishTransportEvent({
        type: 'failed',
        project: this.#options.project,
        records: 1,
        code: outcome.error.code,
      });
    }
    try {
      entry.record.done(outcome);
    } catch (error) {
      this.#warn('callback', `A record's done callback threw: ${String(error)}`, { records: 1 });
    }
    if (this.#waiters.length === 0) return;
    let resolved = false;
    for (const waiter of this.#waiters) {
      if (entry.seq < waiter.mark && --waiter.remaining === 0) {
        waiter.resolve();
        resolved = true;
      }
    }
    if (resolved) this.#waiters = this.#waiters.filter((waiter) => waiter.remaining > 0);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.#timers.clearTimeout(handle);
        this.#sleepers.delete(wake);
        resolve();
      };
      const handle = this.#timers.setTimeout(wake, ms);
      this.#sleepers.add(wake);
    });
  }

  #circuitChanged(state: CircuitState, previous: CircuitState): void {
    publishTransportEvent({ type: 'circuit', project: this.#options.project, state, previous });
    if (state === 'open' && previous === 'closed') {
      this.#warn(
        'circuit',
        `The Weft server at ${this.#options.client.url} keeps failing; pausing sends${this.#options.outbox ? ' and keeping new records in the outbox' : ''} until it answers again.`,
        {},
      );
      // Batches waiting to retry would only fail again; with an outbox they go there now.
      if (this.#options.outbox !== undefined) for (const wake of [...this.#sleepers]) wake();
    }
    if (state === 'closed') {
      this.#unparkAttempts = 0;
      this.#unpark();
      this.#tell('onRecovered', () => this.#options.onRecovered?.());
      this.#schedulePump();
    }
  }

  /** Runs a listener of a delivery event; one that throws is reported, never thrown. */
  #tell(event: string, listener: () => void): void {
    try {
      listener();
    } catch (error) {
      this.#warn('callback', `${event} threw: ${String(error)}`, {});
    }
  }

  /** The retry policy of this batcher's options: record uploads beside the batches retry by the same one. */
  get retryPolicy(): RetryPolicy {
    const { maxAttempts, backoff, maxRetryDelayMs, maxRetriesInFlight } = this.#options;
    return { maxAttempts, backoff, maxRetryDelayMs, maxRetriesInFlight };
  }

  /** The circuit breaker's state: uploads beside the batches go to the outbox at once while it is not `closed`. */
  get circuit(): CircuitState {
    return this.#circuit.state;
  }

  /** One warning per kind per minute; `counts` are summed into the summary of the ones held back. */
  #warn(kind: string, message: string, counts: Record<string, number>): void {
    this.#warnings.report(kind, counts, (summed, occurrences) => ({
      message:
        occurrences > 1 ? `${message} (and ${occurrences - 1} more like it in the last minute)` : message,
      details: { project: this.#options.project, ...summed },
    }));
  }
}

function defaultWarning(message: string, details: Record<string, unknown>): void {
  process.emitWarning(message, { type: 'WeftWarning', detail: JSON.stringify(details) });
}

/** `sent`, with the `missingValues` of the server's answer when it names any. */
function sentOutcome(body: unknown): RecordOutcome {
  const missing = (body as { missingValues?: unknown } | null | undefined)?.missingValues;
  if (!Array.isArray(missing) || missing.length === 0) return SENT;
  return {
    status: 'sent',
    missingValues: missing.filter((digest): digest is string => typeof digest === 'string'),
  };
}

/** How many leading records of a refused append the outbox did write (`OutboxWriteFailedError.recordsWritten`). */
function writtenPrefix(error: unknown): number {
  const written = (error as { recordsWritten?: unknown } | null)?.recordsWritten;
  return typeof written === 'number' && Number.isInteger(written) && written > 0 ? written : 0;
}
