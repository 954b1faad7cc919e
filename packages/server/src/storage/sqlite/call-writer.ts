import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { WeftError } from '@weft/protocol';
import { CALL_INDEX_AFTER, CALL_INDEX_BEFORE, CALL_INDEX_SETUP, callIndexKeys } from './call-index.js';
import type { BatchFollowUp } from './batch-follow-up.js';
import { BLOB_PARAMS, type RowBatch, type UpsertRow } from './call-store.js';

/** Writes batches of prepared call rows, each batch in one transaction. */
export interface CallWriter {
  /** Writes `rows` in one transaction; `followUp`, when given, runs in it or, on a writer thread, right after it. */
  write(rows: readonly UpsertRow[], followUp?: BatchFollowUp): Promise<void>;
  close(): Promise<void>;
}

/*
 * The writer thread. It is plain JavaScript evaluated from this string (not a
 * separate file) so it runs the same from TypeScript sources under test and
 * from the bundled build; it only binds rows that the main thread encoded.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
for (const pragma of workerData.pragmas) db.pragma(pragma);
const upsert = db.prepare(workerData.sql);
// The search indexes, once per batch, as on the main thread (call-index.ts).
db.exec(workerData.index.setup);
const before = workerData.index.before.map((sql) => db.prepare(sql));
const after = workerData.index.after.map((sql) => db.prepare(sql));
const blobParams = workerData.blobParams;
// Blobs arrive packed in one transferred buffer; spans hold [offset, length] (length -1: NULL).
const write = db.transaction((rows, keys, bytes, spans) => {
  for (const statement of before) statement.run(keys);
  let k = 0;
  for (const row of rows) {
    for (const p of blobParams) {
      const length = spans[k + 1];
      row[p] = length < 0 ? null : bytes.subarray(spans[k], spans[k] + length);
      k += 2;
    }
    upsert.run(row);
  }
  for (const statement of after) statement.run(keys);
});
parentPort.on('message', (message) => {
  if (message.type === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    // IMMEDIATE: the write lock is taken first, so a batch waits (busy_timeout)
    // for a follow-up the main connection is committing, instead of failing
    // with SQLITE_BUSY when its read snapshot turns stale on the upgrade to write.
    write.immediate(message.rows, message.keys, message.bytes, message.spans);
    parentPort.postMessage({ id: message.id });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: { message: String(error && error.message || error), code: error && error.code } });
  }
});
`;

interface Pending {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * A {@link CallWriter} on a worker thread with its own SQLite connection.
 *
 *   main thread: HTTP, decode, validate, encode rows ──postMessage──► writer: bind, commit, checkpoint
 *
 * The main thread can prepare the next batch while the writer commits the
 * last, and WAL checkpoints (with their fsyncs) never stall request handling;
 * the price is a second isolate and a copy per batch, which only pays off
 * with a core to spare. A batch resolves only after its commit.
 */
export class WorkerCallWriter implements CallWriter {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #failure: Error | undefined;
  #closing: Promise<void> | undefined;

  constructor({ path, sql, pragmas }: { path: string; sql: string; pragmas: readonly string[] }) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        driver,
        path,
        sql,
        pragmas,
        blobParams: BLOB_PARAMS,
        index: { setup: CALL_INDEX_SETUP, before: CALL_INDEX_BEFORE, after: CALL_INDEX_AFTER },
      },
    });
    // Idle, the writer must not keep the process alive; busy, it must.
    this.#worker.unref();
    this.#worker.on('message', (message: { id: number; error?: { message: string; code?: string } }) => {
      const pending = this.#pending.get(message.id);
      if (pending === undefined) return;
      this.#pending.delete(message.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if (message.error) {
        pending.reject(
          new WeftError({
            code: 'WEFT_STORAGE_FAILED',
            message: `Storing calls failed: ${message.error.message}`,
          }),
        );
      } else {
        pending.resolve();
      }
    });
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', () => this.#fail(new Error('the writer thread exited')));
  }

  async write(rows: readonly UpsertRow[], followUp?: BatchFollowUp): Promise<void> {
    await this.#send(rows);
    // The writer's connection is not this one: after its commit, on this connection.
    followUp?.alone();
  }

  #send(rows: readonly UpsertRow[]): Promise<void> {
    if (this.#failure !== undefined || this.#closing !== undefined) {
      return Promise.reject(
        new WeftError({
          code: 'WEFT_STORAGE_CLOSED',
          message: `The call writer is not running${this.#failure ? ` (${this.#failure.message})` : ''}.`,
        }),
      );
    }
    const id = this.#nextId++;
    const keys = callIndexKeys(rows);
    const { bytes, spans } = packBlobs(rows);
    return new Promise<void>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.ref();
      this.#worker.postMessage({ id, rows, keys, bytes, spans }, [
        bytes.buffer as ArrayBuffer,
        spans.buffer as ArrayBuffer,
      ]);
    });
  }

  /** Waits for batches already sent, then closes the writer's connection. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      if (this.#failure !== undefined) {
        resolve();
        return;
      }
      this.#worker.once('exit', () => resolve());
      this.#worker.ref();
      // Messages are handled in order, so every batch sent before this commits first.
      this.#worker.postMessage({ type: 'close' });
    });
    return this.#closing;
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) {
      pending.reject(
        new WeftError({
          code: 'WEFT_STORAGE_FAILED',
          message: `Storing calls failed: ${error.message}`,
          cause: error,
        }),
      );
    }
    this.#pending.clear();
  }
}

/**
 * Moves every blob parameter of `rows` into one buffer (leaving NULL in the
 * row), so a batch crosses to the writer as one transferred buffer instead of
 * thousands of cloned views of msgpackr's shared pool buffers.
 */
function packBlobs(rows: readonly UpsertRow[]): { bytes: Uint8Array; spans: Float64Array } {
  let total = 0;
  for (const row of rows) {
    for (const p of BLOB_PARAMS) total += (row[p] as Uint8Array | null)?.byteLength ?? 0;
  }
  const bytes = new Uint8Array(total);
  const spans = new Float64Array(rows.length * BLOB_PARAMS.length * 2);
  let offset = 0;
  let k = 0;
  for (const row of rows) {
    for (const p of BLOB_PARAMS) {
      const blob = row[p] as Uint8Array | null;
      if (blob === null) {
        spans[k + 1] = -1;
      } else {
        bytes.set(blob, offset);
        spans[k] = offset;
        spans[k + 1] = blob.byteLength;
        offset += blob.byteLength;
        row[p] = null;
      }
      k += 2;
    }
  }
  return { bytes, spans };
}

/** Writes batches of rows and their follow-ups on this thread (`SqliteCallStore`). */
interface SyncRowWriter {
  write(rows: readonly UpsertRow[], followUp?: BatchFollowUp): void;
  writeBatches(batches: readonly RowBatch[]): void;
}

/** A batch waiting for the next commit, and its submitter's promise. */
interface QueuedBatch extends RowBatch {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * A {@link CallWriter} on the calling thread (the default, and for `:memory:`
 * databases, which a second connection cannot share). A follow-up runs in
 * the batch's transaction: one commit per OTLP batch instead of two.
 *
 * Group commit: a batch waits for the end of the current turn of the event
 * loop, and every batch submitted by then (requests whose bodies were read
 * and checked meanwhile) is written in one transaction, each batch as it
 * would be alone. Under load that is one commit for several requests: the
 * pages they share (the ends of the time-ordered indexes, the rollup rows,
 * the full-text index's new segment) go to the WAL once. A batch's promise
 * settles after its commit. If the shared transaction fails, each batch is
 * written again alone, so one batch's failure is only its own.
 */
export class InlineCallWriter implements CallWriter {
  readonly #calls: SyncRowWriter;
  #queue: QueuedBatch[] = [];
  #scheduled = false;
  #idle: Promise<void> = Promise.resolve();
  #settleIdle: () => void = () => {};

  constructor({ calls }: { calls: SyncRowWriter }) {
    this.#calls = calls;
  }

  write(rows: readonly UpsertRow[], followUp?: BatchFollowUp): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ rows, followUp, resolve, reject });
      if (this.#scheduled) return;
      this.#scheduled = true;
      this.#idle = new Promise<void>((settle) => {
        this.#settleIdle = settle;
      });
      setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    const batches = this.#queue;
    this.#queue = [];
    this.#scheduled = false;
    try {
      if (batches.length === 1) {
        const [only] = batches as [QueuedBatch];
        this.#calls.write(only.rows, only.followUp);
      } else {
        this.#calls.writeBatches(batches);
      }
      for (const batch of batches) batch.resolve();
    } catch (error) {
      if (batches.length === 1) (batches[0] as QueuedBatch).reject(error);
      else this.#writeAlone(batches);
    }
    this.#settleIdle();
  }

  #writeAlone(batches: readonly QueuedBatch[]): void {
    for (const batch of batches) {
      try {
        this.#calls.write(batch.rows, batch.followUp);
        batch.resolve();
      } catch (error) {
        batch.reject(error);
      }
    }
  }

  /** Waits for the batches already submitted to commit. */
  async close(): Promise<void> {
    await this.#idle;
  }
}
