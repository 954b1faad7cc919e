import type { WeftError } from '@weft/protocol';
import type { ApiClient, SendResult } from './api-client.js';
import type { BatcherOutbox, RecordPayload } from './batcher-options.js';
import type { ServerHealth } from './circuit-breaker.js';
import type { DeliveryRecord } from './delivery-record.js';
import { sendDeliveryRecord } from './delivery-record.js';
import { rejectionVerdict, type RetryPolicy, retryVerdict, spendsAttempt } from './delivery-rules.js';
import { encodeDeliveryRecord } from './outbox-records.js';
import {
  DeliveryFailedError,
  OutboxWriteError,
  RecordRejectedError,
  RecordTooLargeError,
} from './transport-errors.js';

/** What became of one {@link DeliveryRecord}: acknowledged (with the server's answer), kept in the outbox, or lost (reported). */
export type DeliveryOutcome =
  | { status: 'sent'; body: unknown }
  | { status: 'spilled' }
  | { status: 'failed'; error: WeftError };

/** Where delivery problems are reported (the client's rate-limited `Warnings`). */
export interface DeliveryWarnings {
  report(kind: string, message: string, error?: unknown): void;
}

/** Options of {@link RecordDelivery}. */
export interface RecordDeliveryOptions {
  project: string;
  /** The client's one API client. */
  api: Pick<ApiClient, 'post' | 'postBytes'>;
  /** The outbox keeper; without one, a record the server cannot take fails. */
  outbox: BatcherOutbox | undefined;
  /** The client's circuit breaker: while the server keeps failing, records go to the outbox at once. */
  health: Pick<ServerHealth, 'state'> | undefined;
  warnings: DeliveryWarnings;
  /** The same policy the batcher applies to call batches. */
  policy: RetryPolicy;
  /** @internal For tests: jitter source. */
  random?: () => number;
}

/**
 * Sends the records a call's refs point at — object versions, files, table
 * chunks — one request each, with the batcher's rules (`retryVerdict`,
 * `rejectionVerdict`) and into the same outbox. A record is done only when
 * the server acknowledged it or it is durably on disk; replay sends it with
 * the same `sendDeliveryRecord`.
 */
export class RecordDelivery {
  readonly #o: RecordDeliveryOptions;
  /** Records waiting to retry now: the retry budget in use. */
  #retrying = 0;
  #counts = { sent: 0, spilled: 0, failed: 0, retries: 0 };
  /** Records between `deliver` and their outcome (kept at exit by {@link heldOnExit}). */
  readonly #inFlight = new Set<DeliveryRecord>();
  /** Records handed to the outbox whose append has not settled. */
  #keeping = 0;

  constructor(options: RecordDeliveryOptions) {
    this.#o = options;
  }

  get stats() {
    return { ...this.#counts, retrying: this.#retrying };
  }

  /**
   * For a process `exit` only: the records between `deliver` and their
   * outcome, as outbox records, and how many records (those, and those being
   * appended to the outbox now) the caller keeps by writing them.
   */
  heldOnExit(): { records: RecordPayload[]; kept: number } {
    const records = [...this.#inFlight].map((record) => encodeDeliveryRecord(this.#o.project, record));
    return { records, kept: records.length + this.#keeping };
  }

  /** Sends `record`, retrying within the policy; never throws. */
  async deliver(record: DeliveryRecord): Promise<DeliveryOutcome> {
    this.#inFlight.add(record);
    try {
      return await this.#deliver(record);
    } finally {
      this.#inFlight.delete(record);
    }
  }

  async #deliver(record: DeliveryRecord): Promise<DeliveryOutcome> {
    const { api, project } = this.#o;
    const result = await this.#withRetries<Exclude<SendResult, { status: 'retryable' }>>(async () => {
      const answer = await sendDeliveryRecord(api, project, record);
      return answer.status === 'retryable' ? { retry: answer } : { done: answer };
    });
    if ('kept' in result) return this.#keepInstead(record, result.kept);
    const answer = result.done;
    if (answer.status === 'sent') {
      this.#counts.sent++;
      return { status: 'sent', body: answer.body };
    }
    const verdict = rejectionVerdict(answer.statusCode, answer.index, 1);
    if (verdict.action === 'keep')
      return this.#keepInstead(record, `the server answered ${answer.statusCode} (${answer.error.message})`);
    const error =
      verdict.action === 'drop' && verdict.tooLarge
        ? new RecordTooLargeError(record.label, byteLength(record.body), answer.error)
        : new RecordRejectedError(record.label, answer.error);
    return this.#failed(record, error);
  }

  /** `record` goes to the outbox instead: from then on the outbox holds it (no longer in flight). */
  #keepInstead(record: DeliveryRecord, reason: string): Promise<DeliveryOutcome> {
    this.#inFlight.delete(record);
    return this.keep([record], reason);
  }

  /**
   * Runs a multi-request upload (a table: known rows, chunks, the table) by
   * the same retry rules as one record: an error with `isRetryable` is
   * retried after the policy's delay (honouring `retryAfterMs`) until the
   * policy says to keep it instead — then `{ kept: reason }`, for the caller
   * to put its records in the outbox. Other errors are thrown. The operation
   * must be idempotent.
   */
  retrying<T>(operation: () => Promise<T>): Promise<{ done: T } | { kept: string }> {
    return this.#withRetries(async (): Promise<Attempt<T>> => {
      try {
        return { done: await operation() };
      } catch (error) {
        const failure = error as { isRetryable?: unknown; retryAfterMs?: unknown } | null;
        if (failure?.isRetryable !== true) throw error;
        const retryAfterMs = typeof failure.retryAfterMs === 'number' ? failure.retryAfterMs : undefined;
        return { retry: { status: 'retryable', retryAfterMs, error: error as WeftError } };
      }
    });
  }

  /**
   * The one retry loop of uploads: runs `attempt` until it is done, waiting
   * between retryable failures as `retryVerdict` says, and gives up with
   * `{ kept: reason }` when the policy says to keep the work in the outbox
   * instead (at once while the circuit is open).
   */
  async #withRetries<T>(attempt: () => Promise<Attempt<T>>): Promise<{ done: T } | { kept: string }> {
    const { outbox, health, policy } = this.#o;
    const serverDown = () => health !== undefined && health.state !== 'closed';
    // Failed requests that spent an attempt: an overloaded server's 429/503 with Retry-After does not.
    let attempts = 0;
    for (;;) {
      // The server is known to be down: keep it on disk now instead of spending the retries.
      if (outbox !== undefined && serverDown())
        return { kept: 'the circuit is open (the server kept failing)' };
      const result = await attempt();
      if ('done' in result) return result;
      if (spendsAttempt(result.retry)) attempts++;
      const verdict = retryVerdict(
        result.retry,
        { attempts, hasOutbox: outbox !== undefined, serverDown: serverDown(), retrying: this.#retrying },
        policy,
        this.#o.random,
      );
      if (verdict.action === 'keep') return { kept: verdict.reason };
      await this.#wait(verdict.delayMs, spendsAttempt(result.retry));
    }
  }

  /** Waits `delayMs`; after a real failure (`budgeted`) it uses the retry budget meanwhile. */
  async #wait(delayMs: number, budgeted: boolean): Promise<void> {
    this.#counts.retries++;
    const counted = budgeted ? 1 : 0;
    this.#retrying += counted;
    try {
      await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
    } finally {
      this.#retrying -= counted;
    }
  }

  /**
   * Keeps `records` in the outbox without sending them (in order, in one
   * append): `spilled` once durable; `failed` without an outbox or when the
   * disk refused them.
   */
  async keep(records: readonly DeliveryRecord[], reason: string): Promise<DeliveryOutcome> {
    const { outbox, project } = this.#o;
    const label =
      records.length === 1 ? records[0]!.label : `${records.length} records (${records[0]?.label ?? ''} …)`;
    if (outbox === undefined)
      return this.#failed(
        records[0],
        new DeliveryFailedError(`Could not send ${label}: ${reason}`),
        records.length,
      );
    this.#keeping += records.length;
    try {
      await outbox.append(records.map((record) => encodeDeliveryRecord(project, record)));
    } catch (error) {
      return this.#failed(records[0], new OutboxWriteError(records.length, error), records.length);
    } finally {
      this.#keeping -= records.length;
    }
    this.#counts.spilled += records.length;
    return { status: 'spilled' };
  }

  #failed(record: DeliveryRecord | undefined, error: WeftError, n = 1): DeliveryOutcome {
    this.#counts.failed += n;
    this.#o.warnings.report('delivery', `${record?.label ?? 'a record'} was not stored`, error);
    return { status: 'failed', error };
  }
}

/** One try: done (whatever the answer), or a retryable failure for `retryVerdict` to rule on. */
type Attempt<T> = { done: T } | { retry: Extract<SendResult, { status: 'retryable' }> };

function byteLength(body: unknown): number {
  return body instanceof Uint8Array ? body.byteLength : 0;
}
