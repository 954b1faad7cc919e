import { backoffDelayMs } from './backoff.js';
import type { BatcherOptionsParsed, RecordPayload } from './batcher-options.js';
import { type Entry, type RecordOutcome, SPILLED } from './batch-entry.js';
import type { Timers } from './timers.js';
import { DeliveryFailedError, OutboxWriteError } from './transport-errors.js';
import { publishTransportEvent } from './transport-events.js';

/** Most record bytes spilled to the outbox in one turn when the in-memory queue is full. */
const SPILL_BYTES_PER_TURN = 2 * 1024 * 1024;

/** What the spill path needs from its batcher. */
export interface SpillHost {
  readonly options: BatcherOptionsParsed;
  readonly timers: Timers;
  readonly random: () => number;
  /** What precedes an item in this project's outbox records. */
  readonly outboxPrefix: Uint8Array;
  settle(entry: Entry, outcome: RecordOutcome): void;
  warn(kind: string, message: string, counts: Record<string, number>): void;
  /** Counts `entry` into the memory bound if it fits; false when it does not. */
  hold(entry: Entry): boolean;
  /** Parked entries go back to the send queue (sent at once, or offered to the outbox again). */
  requeue(entries: Entry[]): void;
}

/**
 * Where a batcher's records go when the server does not take them: spill
 * (to the outbox, or failed without one), overflow (records past the memory
 * bound, spilled a bounded amount per turn) and park (records the outbox
 * refused, kept in memory and offered again after a backoff).
 *
 * ```
 * spill(entries) ─► outbox.append ─┬ ok ─────────────► spilled
 *                                  └ refused ─┬ fits in memory ─► parked ─► (backoff) ─► requeue
 *                                             └ does not ──────► failed
 * overflow(entry) ─► ≤ 2 MiB per turn ─► spill
 * ```
 */
export class SpillPath {
  readonly #host: SpillHost;
  #overflow: Entry[] = [];
  #overflowScheduled = false;
  /** Records the outbox refused (disk full) while they still fit in memory; retried after a backoff. */
  #parked: Entry[] = [];
  #unparkTimer: unknown;
  #unparkAttempts = 0;
  /** Records handed to the outbox whose append has not settled. */
  readonly #spilling = new Set<Entry[]>();

  constructor(host: SpillHost) {
    this.#host = host;
  }

  /** An entry as the outbox keeps it: [prefix, item bytes], parts the outbox frames without a concatenated copy. */
  #outboxRecord(entry: Entry): Uint8Array[] {
    return [this.#host.outboxPrefix, entry.record.bytes];
  }

  /**
   * For a process `exit` only (no later turn will come): the records the
   * batcher holds that are not in an outbox append already — `candidates`
   * (queued, in a request or waiting to retry), over the memory bound,
   * parked — as outbox records, and `settle`, which reports every record not
   * yet settled (these, and those being appended) as spilled once the caller
   * has written them.
   */
  heldOnExit(candidates: readonly Entry[]): { records: RecordPayload[]; settle: () => number } {
    const held = new Set<Entry>();
    for (const entry of [...candidates, ...this.#overflow, ...this.#parked])
      if (!entry.settled) held.add(entry);
    const appending = [...this.#spilling];
    for (const entries of appending) for (const entry of entries) held.delete(entry);
    return {
      records: [...held].map((entry) => this.#outboxRecord(entry)),
      settle: () => {
        let settled = 0;
        for (const entries of [...appending, [...held]]) {
          for (const entry of entries) {
            if (entry.settled) continue;
            this.#host.settle(entry, SPILLED);
            settled += 1;
          }
        }
        return settled;
      },
    };
  }

  /** To the outbox; without one, failed with `reason`. Outcomes are reported when the append settles. */
  spill(entries: Entry[], reason: string, cause?: unknown): void {
    if (entries.length === 0) return;
    const host = this.#host;
    const { outbox, project } = host.options;
    if (outbox === undefined) {
      const error = new DeliveryFailedError(`Could not send ${entries.length} record(s): ${reason}`, cause);
      host.warn('lost', error.message, { records: entries.length });
      for (const entry of entries) host.settle(entry, { status: 'failed', error });
      return;
    }
    const records: RecordPayload[] = entries.map((entry) => this.#outboxRecord(entry));
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
          host.warn('spilled', `Weft records kept in the outbox: ${reason}`, { records: entries.length });
          for (const entry of entries) host.settle(entry, SPILLED);
        },
        (error: unknown) => this.#outboxRefused(entries, error),
      );
  }

  /** A record past the memory bound: to disk, in one append per turn, never on the caller's turn. */
  overflow(entry: Entry): void {
    this.#overflow.push(entry);
    if (this.#overflowScheduled) return;
    this.#overflowScheduled = true;
    setImmediate(() => this.#spillOverflow());
  }

  /**
   * The outbox could not take `entries` (disk full, I/O error). The prefix it
   * did write is spilled; the rest stay in memory while the memory bound
   * allows and go round again after a backoff (or at once when the circuit
   * closes), so a full disk while the server is down costs memory, not calls.
   * Only what does not fit in memory is failed.
   */
  #outboxRefused(entries: Entry[], error: unknown): void {
    const host = this.#host;
    const written = Math.min(entries.length, writtenPrefix(error));
    for (const entry of entries.slice(0, written)) host.settle(entry, SPILLED);
    const lost: Entry[] = [];
    for (const entry of entries.slice(written)) {
      if (host.hold(entry)) this.#parked.push(entry);
      else lost.push(entry);
    }
    const parked = entries.length - written - lost.length;
    host.warn(
      'outbox',
      `The outbox could not take ${entries.length - written} record(s) (${String(error)}); ${parked} kept in memory and retried, ${lost.length} past the memory bound lost.`,
      { records: entries.length - written },
    );
    if (lost.length > 0) {
      const failure = new OutboxWriteError(lost.length, error);
      for (const entry of lost) host.settle(entry, { status: 'failed', error: failure });
    }
    if (parked > 0) this.#armUnpark();
  }

  #armUnpark(): void {
    if (this.#unparkTimer !== undefined) return;
    const { timers, options, random } = this.#host;
    const delay = backoffDelayMs(this.#unparkAttempts++, options.backoff, random);
    this.#unparkTimer = timers.setTimeout(() => {
      this.#unparkTimer = undefined;
      this.unpark();
    }, delay);
  }

  /** The server answers again: parked records go back at once, and the next refusal backs off from the start. */
  recovered(): void {
    this.#unparkAttempts = 0;
    this.unpark();
  }

  /** Parked records go back to the send queue: sent when the circuit is closed, offered to the outbox again when not. */
  unpark(): void {
    if (this.#unparkTimer !== undefined) {
      this.#host.timers.clearTimeout(this.#unparkTimer);
      this.#unparkTimer = undefined;
    }
    const entries = this.#parked;
    if (entries.length === 0) return;
    this.#parked = [];
    this.#host.requeue(entries);
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
    this.spill(entries, `the in-memory queue is full (maxQueueBytes = ${this.#host.options.maxQueueBytes})`);
  }
}

/** How many leading records of a refused append the outbox did write (`OutboxWriteFailedError.recordsWritten`). */
function writtenPrefix(error: unknown): number {
  const written = (error as { recordsWritten?: unknown } | null)?.recordsWritten;
  return typeof written === 'number' && Number.isInteger(written) && written > 0 ? written : 0;
}
