import type { WeftError } from '@weft/protocol';
import { BatchFill } from '../batching/index.js';
import { WarningLimiter } from '../diagnostics/index.js';
import { batchOverheadBytes } from './batch-body.js';
import type { Batch, BatcherStats, CallRecord, Entry, FlushWaiter, RecordOutcome } from './batch-entry.js';
import { BatchSender, CIRCUIT_OPEN_REASON, FALLBACK_REASON } from './batch-sender.js';
import type { RetryPolicy } from './delivery-rules.js';
import { type BatcherOptions, type BatcherOptionsParsed, batcherOptionsSchema } from './batcher-options.js';
import type { CircuitBreaker, CircuitState } from './circuit-breaker.js';
import { serverCircuit } from './server-circuit.js';
import { outboxRecordPrefix } from './outbox-records.js';
import { parseOptions } from './parse-options.js';
import { SpillPath } from './spill-path.js';
import { systemTimers, type Timers } from './timers.js';
import { BatcherClosedError, InvalidRecordError } from './transport-errors.js';
import { publishTransportEvent } from './transport-events.js';

export type { BatcherOptions, BatcherOutbox } from './batcher-options.js';
export type { BatcherStats, CallRecord, RecordOutcome } from './batch-entry.js';
import type { RecordPayload } from './batcher-options.js';

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
 *
 * The parts: the queue, the pump and each record's one outcome are here;
 * requests, retries and 4xx rules are the `BatchSender`'s
 * (`batch-sender.ts`); spill, overflow and park are the `SpillPath`'s
 * (`spill-path.ts`).
 */
export class Batcher {
  #options: BatcherOptionsParsed;
  #timers: Timers;
  #random: () => number;
  #batchBudgetBytes: number;
  #circuit: CircuitBreaker;
  /** Whether this batcher made its circuit (and disposes of it on close) or shares the client's. */
  readonly #ownsCircuit: boolean;
  readonly #unsubscribe: () => void;
  #warnings: WarningLimiter;
  readonly #sender: BatchSender;
  readonly #spill: SpillPath;

  /** Queued entries are `#queue[#head…]`; the consumed front is dropped in chunks, keeping `add` O(1). */
  #queue: Entry[] = [];
  #head = 0;
  #queuedBytes = 0;
  #heldBytes = 0;

  #seq = 0;
  #outstanding = 0;
  #urgentMark = 0;
  /** Records added before this mark go to the outbox instead of (again) to the server: a flush's deadline is near. */
  #fallbackMark = 0;
  #intervalTimer: unknown;
  #intervalDue = false;
  #pumpScheduled = false;
  #waiters: FlushWaiter[] = [];
  #closed = false;
  #closing: Promise<void> | undefined;
  #counts = { sent: 0, spilled: 0, failed: 0 };

  constructor(options: BatcherOptions) {
    this.#options = parseOptions('Batcher', batcherOptionsSchema, options);
    const { project, backoff, circuitFailureThreshold, client, onWarning } = this.#options;
    this.#timers = this.#options.timers ?? systemTimers;
    this.#random = (this.#options.random as (() => number) | undefined) ?? Math.random;
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
    const host = {
      options: this.#options,
      circuit: this.#circuit,
      timers: this.#timers,
      random: this.#random,
      outboxPrefix: outboxRecordPrefix(project),
      fallbackMark: () => this.#fallbackMark,
      settle: (entry: Entry, outcome: RecordOutcome) => this.#settle(entry, outcome),
      fail: (entry: Entry, error: WeftError) => this.#fail(entry, error),
      warn: (kind: string, message: string, counts: Record<string, number>) =>
        this.#warn(kind, message, counts),
      spill: (entries: Entry[], reason: string, cause?: unknown) => this.#spill.spill(entries, reason, cause),
      schedulePump: () => this.#schedulePump(),
      hold: (entry: Entry) => this.#hold(entry),
      requeue: (entries: Entry[]) => this.#requeue(entries),
    };
    this.#sender = new BatchSender(host);
    this.#spill = new SpillPath(host);
    this.#batchBudgetBytes = this.#options.maxBatchBytes - batchOverheadBytes(this.#sender.prefix);
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
      this.#spill.overflow(entry); // over the memory bound: to disk, never on the caller's turn
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
    this.#sender.wake();
    this.#spill.unpark();
    this.#pump();
  }

  /**
   * For a process `exit` only: every record held here and not in an outbox
   * append already, as outbox records, and `settle` (see `SpillPath.heldOnExit`).
   */
  heldOnExit(): { records: RecordPayload[]; settle: () => number } {
    return this.#spill.heldOnExit([...this.#queue.slice(this.#head), ...this.#sender.entries()]);
  }

  /** Diagnostics gauges and counters. */
  get stats(): BatcherStats {
    return {
      queuedRecords: this.#queue.length - this.#head,
      queuedBytes: this.#queuedBytes,
      inFlightBatches: this.#sender.inFlight,
      ...this.#counts,
      retries: this.#sender.retries,
      circuit: this.#circuit.state,
    };
  }

  /**
   * Refuses new records, flushes the ones it has, then stops its timers.
   * Idempotent: a second call joins the first. With `timeoutMs`, resolves by
   * then at the latest (the flush and the stop go on in the background), so
   * a caller that has an outbox to close does not wait on a server that is
   * down.
   */
  close(options: { timeoutMs?: number } = {}): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      await this.flush();
      if (this.#intervalTimer !== undefined) this.#timers.clearTimeout(this.#intervalTimer);
      this.#unsubscribe();
      if (this.#ownsCircuit) this.#circuit.dispose();
      this.#warnings.flush();
    })();
    if (options.timeoutMs === undefined) return this.#closing;
    let timer: unknown;
    const deadline = new Promise<void>((resolve) => {
      timer = this.#timers.setTimeout(resolve, options.timeoutMs ?? 0);
    });
    return Promise.race([this.#closing, deadline]).finally(() => this.#timers.clearTimeout(timer));
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
    const { maxBatchItems, outbox } = this.#options;
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
        this.#spill.spill(this.#take().entries, FALLBACK_REASON);
        continue;
      }
      if (this.#circuit.state !== 'closed') {
        if (outbox === undefined) break; // held in memory; the circuit closing pumps again
        this.#spill.spill(this.#take().entries, CIRCUIT_OPEN_REASON);
        continue;
      }
      if (this.#sender.busy) break;
      void this.#sender.deliver(this.#take());
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

  /** Counts `entry` into the memory bound (parking it after the outbox refused it); false when it does not fit. */
  #hold(entry: Entry): boolean {
    if (entry.held) return true;
    const size = entry.record.bytes.byteLength;
    if (this.#heldBytes + size > this.#options.maxQueueBytes) return false;
    entry.held = true;
    this.#heldBytes += size;
    return true;
  }

  /** Parked entries back in the send queue, sent on the next pump. */
  #requeue(entries: Entry[]): void {
    for (const entry of entries) {
      this.#queue.push(entry);
      this.#queuedBytes += entry.record.bytes.byteLength;
    }
    this.#intervalDue = true;
    this.#schedulePump();
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

  #circuitChanged(state: CircuitState, previous: CircuitState): void {
    publishTransportEvent({ type: 'circuit', project: this.#options.project, state, previous });
    if (state === 'open' && previous === 'closed') {
      this.#warn(
        'circuit',
        `The Weft server at ${this.#options.client.url} keeps failing; pausing sends${this.#options.outbox ? ' and keeping new records in the outbox' : ''} until it answers again.`,
        {},
      );
      // Batches waiting to retry would only fail again; with an outbox they go there now.
      if (this.#options.outbox !== undefined) this.#sender.wake();
    }
    if (state === 'closed') {
      this.#spill.recovered();
      this.#tell('onRecovered', () => this.#options.onRecovered?.());
      this.#schedulePump();
    }
  }

  /** Runs a listener of a delivery event (named for the report); one that throws is reported, never thrown. */
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
