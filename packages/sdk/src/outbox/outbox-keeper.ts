import { resolve } from 'node:path';
import { hasCode } from '@weft/protocol';
import type {
  ApiClient,
  BackoffOptions,
  RecordPayload,
  ServerHealth,
  SendResult,
} from '../transport/index.js';
import { recordAnswer } from '../transport/index.js';
import { type DeliveryMark, DeliveryWaiters, deliveryMarkOf, isMarkDelivered } from './delivery-waiters.js';
import { OutboxUnavailableError } from './errors/index.js';
import { Outbox } from './outbox.js';
import { outboxFoldersIn, processFolder, removeFolderIfEmpty } from './outbox-folders.js';
import { type OutboxStats, sumOutboxStats } from './outbox-stats.js';
import { ReplaySchedule } from './replay-schedule.js';
import { writeFolderSync } from './write-on-exit.js';
import { acquireOutbox, releaseOutbox } from './shared-outbox.js';
import { createReplaySender } from './replay-sender.js';

/** Where the keeper reports problems (the client's rate-limited `Warnings`). */
export interface KeeperWarnings {
  report(kind: string, message: string, error?: unknown): void;
}

/** Options of {@link OutboxKeeper}. */
export interface OutboxKeeperOptions {
  /** The project's outbox folder (created only when a record has to be written). */
  dir: string;
  /** Replays go through the client's one API client. */
  api: Pick<ApiClient, 'post' | 'postBytes' | 'postCallBatch'>;
  warnings: KeeperWarnings;
  /** Disk bound of each outbox folder. @default the outbox's (1 GiB) */
  maxBytes?: number | undefined;
  /** Spacing of replay attempts after one the server refused. @default { baseMs: 1_000, maxMs: 30_000 } */
  backoff?: BackoffOptions;
  /**
   * The client's circuit breaker: replay requests count as its successes and
   * failures, and its closing (the server answers again) starts a replay.
   */
  health?: ServerHealth | undefined;
}

/**
 * The one owner of spill and replay for a client: where records the server
 * cannot take go, and when they come back.
 *
 * ```
 *  append(records) ─► own outbox (opened on the first append: <dir>, or
 *                     <dir>/proc-<pid>-<id> when another live process holds <dir>)
 *  circuit closed ────┐                ┌─ own outbox ──────────┐
 *  queueDrained() ────┼─► replay round ─┤                       ├─► createReplaySender ─► server
 *  startup, a flush ──┘  (one at a time)└─ adopted: folders of ─┘
 *                                          dead processes
 * ```
 *
 * Replay is driven by events: the circuit closing (the server recovered)
 * and the batcher's queue draining (the server takes records again), plus a
 * backoff retry after a round the server refused. A flush waits with
 * `deliveryMark()` and `whenDelivered()`: while one waits, rounds follow
 * each other until what it covers is acknowledged, a refused round is tried
 * again within a quarter of a second while the circuit is closed, and the
 * circuit's closing starts the next one at once.
 *
 * Several processes of one project each get their own folder, so each has a
 * durable outbox; a later process adopts folders whose lock is stale (their
 * process died), replays them and removes the per-process ones once empty.
 *
 * Its parts: `ReplaySchedule` (when rounds run, replay-schedule.ts),
 * `DeliveryWaiters` (the flushes waiting, delivery-waiters.ts), the folder
 * helpers (outbox-folders.ts).
 */
export class OutboxKeeper {
  readonly #o: OutboxKeeperOptions;
  readonly #dir: string;
  readonly #send: (records: Uint8Array[]) => Promise<boolean>;
  #own: Promise<Outbox | undefined> | undefined;
  #ownDir: string | undefined;
  readonly #adopted = new Map<string, Outbox>();
  readonly #schedule: ReplaySchedule;
  #replayed = 0;
  #unreported = 0;
  #closed = false;
  /** The folders found at startup are open (adopted, or our own): a flush's mark covers them. */
  readonly #discovered: Promise<void>;
  #discoveryDone = false;
  readonly #waiters = new DeliveryWaiters();
  readonly #unsubscribe: () => void;
  /** Appends waiting for the own outbox to open (written at exit by {@link keepOnExit}). */
  readonly #awaitingOpen = new Set<readonly RecordPayload[]>();

  constructor(options: OutboxKeeperOptions) {
    this.#o = options;
    this.#dir = resolve(options.dir);
    const health = options.health;
    // Replay requests tell the circuit what they saw, as the batcher's do.
    const observed: Pick<ApiClient, 'post' | 'postBytes' | 'postCallBatch'> = {
      post: async (path, body) => this.#observe(await options.api.post(path, body)),
      postCallBatch: async (body) => this.#observe(await options.api.postCallBatch(body)),
      postBytes: async (path, bytes) => this.#observe(await options.api.postBytes(path, bytes)),
    };
    this.#send = createReplaySender(observed, (message, details) =>
      options.warnings.report('outbox', message, details),
    );
    this.#unsubscribe =
      health?.subscribe((state) => {
        if (state === 'closed') this.#schedule.queue();
      }) ?? (() => undefined);
    // The startup round is queued now (flush() called right after init waits
    // for it) and runs on a later turn, off the caller's.
    const startup = new Promise<void>((r) => setImmediate(r)).then(() => this.#discover());
    this.#discovered = startup
      .catch(() => undefined)
      .then(() => {
        this.#discoveryDone = true;
      });
    this.#schedule = new ReplaySchedule(
      startup,
      () => this.#round(),
      options.backoff ?? { baseMs: 1_000, maxMs: 30_000 },
    );
  }

  #observe(result: SendResult): SendResult {
    if (result.status === 'retryable') this.#schedule.serverFailed(result.retryAfterMs);
    if (this.#o.health !== undefined) recordAnswer(this.#o.health, result);
    return result;
  }

  /** Records the server acknowledged from any outbox this keeper replayed, since it was created. */
  get replayed(): number {
    return this.#replayed;
  }

  /** Records replayed since the last call (each replayed record is reported by exactly one flush). */
  takeReplayed(): number {
    const n = this.#unreported;
    this.#unreported = 0;
    return n;
  }

  /** The outboxes' counts summed (own and adopted); undefined while none is open. */
  get stats(): OutboxStats | undefined {
    return sumOutboxStats([...this.#open()].map((outbox) => outbox.stats));
  }

  /** The folder this process writes to, once it has written. */
  get ownDir(): string | undefined {
    return this.#ownDir;
  }

  /** Keeps `records` durably (the batcher's and the uploads' outbox). Rejects when no outbox could be opened. */
  async append(records: readonly RecordPayload[]): Promise<void> {
    this.#awaitingOpen.add(records);
    let outbox: Outbox | undefined;
    try {
      outbox = await this.#openOwn(true);
    } finally {
      this.#awaitingOpen.delete(records);
    }
    if (outbox === undefined) throw new OutboxUnavailableError(this.#dir);
    await outbox.append(records);
    // Records kept while the server is up (a transient failure, the retry
    // budget) come back without waiting for an outage to end: a replay after
    // a backoff, unless an event starts one first.
    this.#schedule.retryLater();
  }

  /**
   * For a process `exit` only: writes synchronously what was appended and
   * not yet written, then `extra`, into this process's outbox (a segment of
   * its own), or, when none is open yet, into a fresh per-process folder the
   * next process adopts. Returns how many records it wrote and where. Throws
   * what the file system throws.
   */
  keepOnExit(extra: readonly RecordPayload[]): { kept: number; dir: string | undefined } {
    const records = [...[...this.#awaitingOpen].flat(), ...extra];
    const own = this.#ownOutbox;
    if (own !== undefined) return { kept: own.writeOnExit(records), dir: own.dir };
    if (records.length === 0) return { kept: 0, dir: undefined };
    const dir = processFolder(this.#dir);
    writeFolderSync(dir, records);
    return { kept: records.length, dir };
  }

  /** Event: the batcher's queue is empty and the server took its last batch; replay if anything waits. */
  queueDrained(): void {
    if ((this.stats?.records ?? 0) > 0) this.#schedule.queue();
  }

  /** Resolves when every replay round started or queued before this call has ended (whatever its outcome). */
  whenReplayed(): Promise<void> {
    return this.#schedule.settled;
  }

  /** True when no outbox holds a record to deliver, none is being written, and the startup look for outboxes is done. */
  get idle(): boolean {
    if (!this.#discoveryDone) return false;
    const stats = this.stats;
    return stats === undefined || (stats.records === 0 && stats.pendingRecords === 0);
  }

  /**
   * What a flush covers of the outboxes: every record written so far to each
   * one open (this process's own, and the folders of dead processes found at
   * startup, which it waits for).
   */
  async deliveryMark(): Promise<DeliveryMark> {
    await this.#discovered;
    return deliveryMarkOf(this.#open());
  }

  /** True when every record `mark` covers is acknowledged (or dropped, or its outbox is gone). */
  isDelivered(mark: DeliveryMark): boolean {
    return isMarkDelivered(mark, this.#open());
  }

  /**
   * Resolves when every record `mark` covers is acknowledged (see
   * {@link isDelivered}), or when the keeper closes. While someone waits,
   * replay is urgent: a round starts now unless the circuit is open (its
   * closing starts one), and rounds follow each other until it resolves.
   */
  whenDelivered(mark: DeliveryMark): Promise<void> {
    if (this.#closed || this.isDelivered(mark)) return Promise.resolve();
    const delivered = this.#waiters.wait(mark);
    if ((this.#o.health?.state ?? 'closed') === 'closed') this.#schedule.queue();
    return delivered;
  }

  /** Resolves the delivery waiters whose mark is reached; true when some still wait. */
  #settleWaiters(): boolean {
    return this.#waiters.settle((mark) => this.isDelivered(mark), this.#closed);
  }

  /** Stops replaying and closes every outbox it holds (a per-process folder left empty is removed). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    this.#schedule.close();
    this.#settleWaiters();
    for (const outbox of this.#adopted.values()) await outbox.close().catch(() => undefined);
    this.#adopted.clear();
    const own = await this.#own?.catch(() => undefined);
    if (own !== undefined && this.#ownDir !== undefined) {
      const empty = own.stats.records === 0 && own.stats.pendingRecords === 0;
      await releaseOutbox(this.#ownDir);
      if (empty && this.#ownDir !== this.#dir) await removeFolderIfEmpty(this.#ownDir).catch(() => undefined);
    }
  }

  *#open(): Iterable<Outbox> {
    yield* this.#adopted.values();
    if (this.#ownOutbox !== undefined) yield this.#ownOutbox;
  }

  #ownOutbox: Outbox | undefined;

  /**
   * The outbox this process writes to. `create` false: only when the
   * project's folder already holds an outbox (or another client in this
   * process has it open) — nothing is created on disk.
   */
  #openOwn(create: boolean): Promise<Outbox | undefined> {
    if (this.#own !== undefined) return this.#own;
    const opening = (async () => {
      const options = {
        onWarning: (message: string, details: Record<string, unknown>) =>
          this.#o.warnings.report('outbox', message, details),
        ...(this.#o.maxBytes === undefined ? {} : { maxBytes: this.#o.maxBytes }),
      };
      try {
        const outbox = await acquireOutbox({ dir: this.#dir, ...options });
        this.#ownDir = this.#dir;
        return outbox;
      } catch (error) {
        if (!hasCode(error, 'WEFT_OUTBOX_LOCKED')) throw error;
      }
      if (!create) return undefined;
      // Another live process writes to the project's folder: this one gets its own beside it.
      const dir = processFolder(this.#dir);
      const outbox = await acquireOutbox({ dir, ...options });
      this.#ownDir = dir;
      return outbox;
    })().then(
      (outbox) => {
        this.#ownOutbox = outbox;
        if (outbox === undefined) this.#own = undefined; // found nothing to open: a later append creates it
        return outbox;
      },
      (error: unknown) => {
        this.#own = undefined; // a later append tries again
        this.#o.warnings.report(
          'outbox',
          `the outbox at ${this.#dir} could not be opened; records the server cannot take now are reported as failed`,
          error,
        );
        return undefined;
      },
    );
    this.#own = opening;
    return opening;
  }

  /** Opens what the folder holds: this process's own outbox when the project's folder is free, and the folders dead processes left. */
  async #discover(): Promise<void> {
    const present = await outboxFoldersIn(this.#dir);
    for (const dir of present) {
      if (dir === this.#ownDir) continue;
      // The project's folder, free: this process's own outbox (as before any process folders existed).
      if (dir === this.#dir && this.#own === undefined && (await this.#openOwn(false)) !== undefined)
        continue;
      await this.#adopt(dir);
    }
  }

  /** One replay round: adopt what dead processes left, then replay every open outbox oldest-first. */
  async #round(): Promise<void> {
    if (this.#closed) return;
    let refused = false;
    let sent = 0;
    this.#schedule.roundStarted();
    try {
      await this.#discover();
      for (const [dir, outbox] of [
        ...this.#adopted,
        ...(this.#ownOutbox ? [[this.#ownDir ?? this.#dir, this.#ownOutbox] as const] : []),
      ]) {
        if (outbox.stats.records === 0 && outbox.stats.pendingRecords === 0 && !this.#adopted.has(dir))
          continue;
        const result = await outbox.replay(this.#send);
        sent += result.sent;
        this.#replayed += result.sent;
        this.#unreported += result.sent;
        if (result.error !== undefined)
          this.#o.warnings.report(
            'outbox',
            'replaying the outbox failed; it is kept for the next replay',
            result.error,
          );
        if (result.remaining > 0) {
          refused = true;
          continue;
        }
        if (this.#adopted.has(dir)) {
          this.#adopted.delete(dir);
          await outbox.close();
          if (dir !== this.#dir) await removeFolderIfEmpty(dir);
        }
      }
    } catch (error) {
      refused = true;
      this.#o.warnings.report('outbox', 'replaying the outbox failed; it is kept for the next replay', error);
    }
    if (!refused) this.#schedule.succeeded();
    if (this.#settleWaiters())
      this.#schedule.hurryOn(refused, sent, (this.#o.health?.state ?? 'closed') === 'closed');
    else if (refused) this.#schedule.retryLater();
  }

  /** Takes over a folder left by a process that is gone (its lock is stale); a live owner's folder is left alone. */
  async #adopt(dir: string): Promise<void> {
    if (this.#adopted.has(dir)) return;
    try {
      const outbox = await Outbox.open({
        dir,
        onWarning: (message, details) => this.#o.warnings.report('outbox', message, details),
        ...(this.#o.maxBytes === undefined ? {} : { maxBytes: this.#o.maxBytes }),
      });
      this.#adopted.set(dir, outbox);
    } catch (error) {
      if (hasCode(error, 'WEFT_OUTBOX_LOCKED')) return;
      this.#o.warnings.report(
        'outbox',
        `the outbox left at ${dir} could not be opened; it is kept for a later replay`,
        error,
      );
    }
  }
}
