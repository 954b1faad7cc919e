import type { WeftError } from '@weft/protocol';
import { ReusableBytes } from '../memory/index.js';
import type { SendResult } from './api-client.js';
import { batchBodyPrefix, encodeBatchBody } from './batch-body.js';
import { type Batch, type Entry, type RecordOutcome, sentOutcome } from './batch-entry.js';
import type { BatcherOptionsParsed } from './batcher-options.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import { rejectionVerdict, retryVerdict, spendsAttempt, splitInHalves } from './delivery-rules.js';
import { recordAnswer } from './server-circuit.js';
import type { Timers } from './timers.js';
import { RecordRejectedError, RecordTooLargeError } from './transport-errors.js';
import { publishTransportEvent } from './transport-events.js';

/** Why records go to the outbox once a flush's deadline is near (see `Batcher.spillHeld`). */
export const FALLBACK_REASON = "a flush's deadline came before the server took them";

/** Why records go to the outbox while the circuit is open. */
export const CIRCUIT_OPEN_REASON = 'the circuit is open (the server kept failing)';

/** What the sender needs from its batcher. */
export interface BatchSenderHost {
  readonly options: BatcherOptionsParsed;
  readonly circuit: CircuitBreaker;
  readonly timers: Timers;
  readonly random: () => number;
  /** Records added before this mark go to the outbox instead of (again) to the server. */
  fallbackMark(): number;
  spill(entries: Entry[], reason: string, cause?: unknown): void;
  settle(entry: Entry, outcome: RecordOutcome): void;
  fail(entry: Entry, error: WeftError): void;
  warn(kind: string, message: string, counts: Record<string, number>): void;
  /** A send slot came free: start what waits. */
  schedulePump(): void;
}

/**
 * Sends a batcher's batches: one request per batch, retried by
 * `retryVerdict`, split or trimmed by `rejectionVerdict`, spilled when the
 * rules say so. Holds a send slot while a request is out and gives it up
 * while waiting to retry, so other batches keep flowing within the retry
 * budget.
 */
export class BatchSender {
  readonly #host: BatchSenderHost;
  readonly #prefix: Uint8Array;
  /** Body memory for each batch that may be in flight, and one more. */
  readonly #bodyMemory: ReusableBytes;
  #active = 0;
  /**
   * Send slots open now: every one normally; one after the server said it is
   * overloaded (429/503 with `Retry-After`), one more back with each batch it
   * then takes. A busy server sees fewer requests at once, instead of each
   * slot a refused batch frees going to the next batch and being refused too.
   */
  #slots: number;
  #retrying = 0;
  #retries = 0;
  readonly #sleepers = new Set<() => void>();
  /** Batches being delivered (a request out, or waiting to retry), with the parts they were split into. */
  readonly #delivering = new Set<{ work: Batch[]; current: Batch | undefined }>();

  constructor(host: BatchSenderHost) {
    this.#host = host;
    const { project, maxConcurrentBatches, maxBatchBytes } = host.options;
    this.#prefix = batchBodyPrefix(project);
    this.#bodyMemory = new ReusableBytes(maxConcurrentBatches + 1, maxBatchBytes);
    this.#slots = maxConcurrentBatches;
  }

  /** The body's prefix (`{ project, items: [` …): its size is what a batch's budget leaves out. */
  get prefix(): Uint8Array {
    return this.#prefix;
  }

  /** True while every open send slot holds a request. */
  get busy(): boolean {
    return this.#active >= this.#slots;
  }

  /** Batches with a request out or waiting to retry. */
  get inFlight(): number {
    return this.#active + this.#retrying;
  }

  /** Retries made so far. */
  get retries(): number {
    return this.#retries;
  }

  /** Entries in batches being delivered (for a process `exit`). */
  *entries(): Iterable<Entry> {
    for (const { work, current } of this.#delivering) {
      if (current) yield* current.entries;
      for (const batch of work) yield* batch.entries;
    }
  }

  /** Batches waiting to retry go round at once (to the outbox, when the rules now say so). */
  wake(): void {
    for (const wake of [...this.#sleepers]) wake();
  }

  /** Sees one batch (and the parts it may be split into) to an outcome. */
  async deliver(first: Batch): Promise<void> {
    const host = this.#host;
    const { client, outbox } = host.options;
    const work: Batch[] = [first];
    let current: Batch | undefined;
    const live = { work, current: undefined as Batch | undefined };
    this.#delivering.add(live);
    this.#active += 1;
    let holdingSlot = true;
    try {
      while (work.length > 0) {
        const batch = work.pop()!;
        current = batch;
        live.current = batch;
        if (outbox !== undefined && batch.entries[0]!.seq < host.fallbackMark()) {
          host.spill(batch.entries, FALLBACK_REASON);
          continue;
        }
        if (host.circuit.state !== 'closed') {
          if (outbox !== undefined) {
            host.spill(batch.entries, CIRCUIT_OPEN_REASON);
            continue;
          }
          this.#active -= 1;
          holdingSlot = false;
          await host.circuit.whenClosed();
          this.#active += 1;
          holdingSlot = true;
        }
        const body = encodeBatchBody(
          this.#prefix,
          batch.entries.map((entry) => entry.record.bytes),
          this.#bodyMemory.take,
        );
        const result = await client.postCallBatch(body);
        switch (result.status) {
          case 'sent': {
            this.#bodyMemory.release(body);
            this.#slots = Math.min(host.options.maxConcurrentBatches, this.#slots + 1);
            recordAnswer(host.circuit, result);
            const outcome = sentOutcome(result.body);
            for (const entry of batch.entries) host.settle(entry, outcome);
            break;
          }
          case 'retryable': {
            // An overloaded server (429/503 with Retry-After) slows the sender but does not open the circuit.
            recordAnswer(host.circuit, result);
            if (result.retryAfterMs !== undefined) this.#slots = 1;
            // Asked to wait (429/503 with Retry-After), the batch keeps its attempts for real failures.
            const failed = spendsAttempt(result);
            if (failed) batch.attempts += 1;
            const retry = this.#retryDecision(batch, result);
            if (retry === undefined) break;
            this.#retries += 1;
            // Only real failures use the retry budget; an overloaded server's wait holds a send slot instead.
            const budgeted = failed ? 1 : 0;
            this.#retrying += budgeted;
            publishTransportEvent({
              type: 'retry',
              project: host.options.project,
              attempt: batch.attempts,
              delayMs: retry,
              records: batch.entries.length,
              reason: result.error.message,
            });
            // After a real failure, within the budget, the slot is free while waiting; past it (no outbox)
            // the slot is kept. Asked to wait by an overloaded server, the batch keeps its slot: nothing
            // more goes out until the server takes a batch (the budget does not bound these waits).
            const keepSlot = !failed || this.#retrying > host.options.maxRetriesInFlight;
            if (!keepSlot) {
              this.#active -= 1;
              holdingSlot = false;
              host.schedulePump();
            }
            await this.#sleep(retry);
            this.#retrying -= budgeted;
            if (!holdingSlot) {
              // May briefly exceed maxConcurrentBatches: retries are bounded by the retry budget instead.
              this.#active += 1;
              holdingSlot = true;
            }
            work.push(batch);
            current = undefined;
            break;
          }
          case 'rejected':
            recordAnswer(host.circuit, result); // the server answered; it is up
            this.#rejected(batch, result, work);
            break;
        }
        current = undefined;
      }
    } catch (error) {
      // Unreachable by design (post never throws); if it happens, keep the records rather than lose them.
      const entries = [...(current?.entries ?? []), ...work.flatMap((batch) => batch.entries)];
      host.warn('bug', `Weft transport hit an unexpected error: ${String(error)}`, {});
      host.spill(entries, `an unexpected transport error (${String(error)})`);
    } finally {
      this.#delivering.delete(live);
      if (holdingSlot) this.#active -= 1;
      host.schedulePump();
    }
  }

  /** The delay before retrying `batch`, or undefined when it went to the outbox (or failed) instead. */
  #retryDecision(batch: Batch, result: Extract<SendResult, { status: 'retryable' }>): number | undefined {
    const { options, circuit, random } = this.#host;
    const verdict = retryVerdict(
      result,
      {
        attempts: batch.attempts,
        hasOutbox: options.outbox !== undefined,
        serverDown: circuit.state !== 'closed',
        retrying: this.#retrying,
      },
      options,
      random,
    );
    if (verdict.action === 'retry') return verdict.delayMs;
    this.#host.spill(
      batch.entries,
      verdict.reason,
      batch.attempts >= options.maxAttempts ? result.error : undefined,
    );
    return undefined;
  }

  /** A 4xx: isolate invalid records, split oversized batches, keep the rest (see `rejectionVerdict`). */
  #rejected(batch: Batch, result: Extract<SendResult, { status: 'rejected' }>, work: Batch[]): void {
    const host = this.#host;
    const { statusCode, index, error } = result;
    const verdict = rejectionVerdict(statusCode, index, batch.entries.length);
    switch (verdict.action) {
      case 'drop': {
        const [bad] = batch.entries.splice(verdict.index, 1);
        host.fail(
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
          host.warn(
            'auth',
            `The Weft server refused the credentials (${statusCode}); check WEFT_API_KEY (or init({ apiKey })). Records are kept in the outbox until it accepts them.`,
            { records: batch.entries.length },
          );
          host.spill(batch.entries, `the server refused the credentials (${statusCode})`, error);
          return;
        }
        host.warn('http', `The Weft server answered ${statusCode}: ${error.message}`, {
          records: batch.entries.length,
        });
        host.spill(batch.entries, `the server answered ${statusCode} (${error.message})`, error);
    }
  }

  #sleep(ms: number): Promise<void> {
    const timers = this.#host.timers;
    return new Promise((resolve) => {
      const wake = () => {
        timers.clearTimeout(handle);
        this.#sleepers.delete(wake);
        resolve();
      };
      const handle = timers.setTimeout(wake, ms);
      this.#sleepers.add(wake);
    });
  }
}
