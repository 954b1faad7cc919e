import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/*
 * WAL checkpoints on a thread of their own.
 *
 *   main thread: commit ──committed()──► checkpointer thread: PRAGMA wal_checkpoint(PASSIVE)
 *
 * A checkpoint copies the pages committed to the WAL back into the database
 * file (with its fsyncs). Left to SQLite's auto-checkpoint, it runs inside the
 * commit that crosses the threshold, on the thread serving the request. For
 * OTLP spans that is the dearest part of ingest: their call ids are hashes of
 * random trace ids, so a batch dirties pages all over four id-keyed indexes
 * and every checkpoint writes them back at random places (in the ingest
 * bench, with no checkpoint on the request path at all, protobuf OTLP took 36%
 * more spans/s; native batches, whose pages are appended, did not move; with
 * this thread, 6–17% more in alternating runs, bench/RESULTS.md).
 *
 * A PASSIVE checkpoint never blocks the writer or readers: it copies what was
 * committed when it began, and the next one takes the rest. At most one runs
 * or waits; a commit while one waits is copied by it, and a commit while one
 * runs asks for one more after it (at least {@link MIN_INTERVAL_MS} after the
 * last began), so under steady ingest the
 * thread keeps pace with the WAL and the writer resets it whenever a
 * checkpoint has caught up. The connections' own auto-checkpoint stays as the
 * backstop (if this thread cannot start or falls behind, commits checkpoint
 * as before), and then finds most pages already copied.
 */

/**
 * Shortest time between two checkpoints' starts. Pages rewritten by every
 * batch (the random index pages) are copied once per checkpoint, so back to
 * back checkpoints would copy them per batch; in the ingest bench (alternating
 * runs) 250 ms kept OTLP's gain and 1 s gave no more.
 */
const MIN_INTERVAL_MS = 250;

const CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ done: true });
  } catch (error) {
    parentPort.postMessage({ done: true, error: String((error && error.message) || error) });
  }
});
`;

/** Runs WAL checkpoints of one database file on a worker thread, one at a time, after commits. */
export class WalCheckpointer {
  readonly #worker: Worker;
  /** A checkpoint is running on the thread. */
  #running = false;
  /** A checkpoint waits for {@link MIN_INTERVAL_MS}; it will copy every commit made until it starts. */
  #timer: NodeJS.Timeout | undefined;
  /** A commit came while one ran: another follows it. */
  #again = false;
  #stopped = false;
  #lastStart = 0;
  #closing: Promise<void> | undefined;
  #idle: (() => void)[] = [];
  /** Checkpoints that failed (the backstop auto-checkpoint covers them); for diagnostics and tests. */
  failures = 0;

  constructor({ path }: { path: string }) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.#worker = new Worker(CHECKPOINTER_SOURCE, { eval: true, workerData: { driver, path } });
    // Never keeps the process alive on its own; close() waits for it.
    this.#worker.unref();
    this.#worker.on('message', (message: { error?: string }) => {
      if (message.error !== undefined) this.failures++;
      this.#running = false;
      if (this.#again && !this.#stopped) {
        this.#again = false;
        this.committed();
      }
      this.#settleIfIdle();
    });
    // A thread that cannot start or dies leaves checkpoints to the backstop.
    const stop = () => {
      this.#stopped = true;
      this.#running = false;
      this.#settleIfIdle();
    };
    this.#worker.on('error', stop);
    this.#worker.on('exit', stop);
  }

  /** Call after each commit: starts a checkpoint, or, while one runs, asks for one more after it. */
  committed(): void {
    if (this.#stopped || this.#timer !== undefined) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    const wait = this.#lastStart + MIN_INTERVAL_MS - Date.now();
    if (wait <= 0) {
      this.#start();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#start();
    }, wait);
    this.#timer.unref();
  }

  /** Resolves once no checkpoint is running or asked for. */
  idle(): Promise<void> {
    if (!this.#running && this.#timer === undefined) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Lets a running checkpoint finish, then closes the thread's connection. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#again = false;
      if (this.#timer !== undefined) {
        // A checkpoint waiting for its turn: closing the last connection checkpoints anyway.
        clearTimeout(this.#timer);
        this.#timer = undefined;
        this.#settleIfIdle();
      }
      await this.idle();
      if (this.#stopped) return;
      this.#stopped = true;
      const exited = new Promise<void>((resolve) => this.#worker.once('exit', () => resolve()));
      this.#worker.ref();
      this.#worker.postMessage('close');
      await exited;
    })();
    return this.#closing;
  }

  #start(): void {
    this.#running = true;
    this.#lastStart = Date.now();
    this.#worker.postMessage('checkpoint');
  }

  #settleIfIdle(): void {
    if (this.#running || this.#timer !== undefined) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}
