import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type {
  Call,
  CallItem,
  CallQueryParsed,
  CallQueryResponse,
  Feedback,
  FeedbackItem,
  ObjectCreateResponse,
  ObjectLabel,
  ObjectListResponse,
  ObjectRead,
  ObjectVersion,
  TableCreateResponse,
  ProjectListResponse,
  SessionQueryParsed,
  SessionQueryResponse,
  TableRowsResponse,
  TraceColumnsResponse,
} from '@weft/protocol';
import { traceColumnsOf } from '@weft/protocol';
import { InvalidRequestError, StorageClosedError } from '../../errors/index.js';
import { encodeSpanUsage, type SpanCallPut } from '../span-usage.js';
import type { MonitorStorage, ObjectPut, Storage, TablePut, VersionSelector } from '../storage.js';
import type { LifecycleStorage } from '../lifecycle-storage.js';
import type { BatchFollowUp } from './batch-follow-up.js';
import { SqliteCallQuery } from './call-query.js';
import { SqliteCallStore, UPSERT, upsertRow } from './call-store.js';
import { type CallWriter, InlineCallWriter, WorkerCallWriter } from './call-writer.js';
import { SqliteContentPins } from './content-pins.js';
import { SqliteFeedbackStore } from './feedback-store.js';
import { SqliteFileStore } from './file-store.js';
import { SqliteLabelStore } from './label-store.js';
import { migrate } from './migrations.js';
import { SqliteObjectStore } from './object-store.js';
import { SqliteSessionQuery } from './session-query.js';
import { SqliteSpanUsageStore } from './span-usage-store.js';
import { SqliteTableStore } from './table-store.js';
import { SqliteValueStore } from './value-store.js';
import { WalCheckpointer } from './wal-checkpointer.js';
import { SqliteMonitorStorage } from './sqlite-monitor-storage.js';
import { SqliteLifecycle } from './sqlite-lifecycle.js';
import type { StoredValue } from '../stored-value.js';

export interface SqliteStorageOptions {
  /** Database file; its folder is created. `:memory:` for a throwaway database. */
  path: string;
  /**
   * Commit call batches on a worker thread with its own connection, so
   * ingest can use a second core and WAL checkpoints never stall requests.
   * Off by default: on a busy 2-core machine the extra thread cost more than
   * it gave (the ingest bench, alternating runs: ~26k records/s on one
   * thread, ~20k with the writer thread). Worth trying with cores to spare.
   * Ignored (always off) for `:memory:`.
   * @default false
   */
  writerThread?: boolean;
}

/**
 * Every connection's settings. WAL with `synchronous = NORMAL`: a commit
 * survives a process crash; only an OS crash can lose the last commits.
 */
const PRAGMAS = [
  'journal_mode = WAL',
  'synchronous = NORMAL',
  // Readers and a writer may meet during WAL checkpoints; wait rather than fail.
  'busy_timeout = 5000',
  // Index pages of the calls table are touched all over on ingest; a 64 MiB
  // page cache keeps them in memory instead of re-reading them per batch.
  'cache_size = -65536',
  // Checkpoint every 64 MiB of WAL instead of every 4 MiB: index pages are
  // rewritten by every batch, so a rarer checkpoint copies each page once for
  // many commits and pays its two fsyncs far less often (in the ingest
  // bench, time spent committing roughly halved).
  'wal_autocheckpoint = 16384',
  // Temporary tables (the ingest batch's index copy, see call-index.ts),
  // statement journals and sorts in memory, not in temporary files: with
  // files, a statement journal opened per upsert cost ~50 µs a row.
  'temp_store = MEMORY',
];

/**
 * The embedded storage engine: one SQLite file in WAL mode (see `PRAGMAS`),
 * numbered migrations, prepared statements, and one transaction per ingest
 * batch, all through better-sqlite3, which is synchronous (call batches
 * optionally on a writer thread, see `writerThread`). A batch's promise
 * resolves after its commit, so a read that follows sees it.
 */
export class SqliteStorage implements Storage {
  readonly #db: Database.Database;
  readonly #calls: SqliteCallStore;
  readonly #query: SqliteCallQuery;
  readonly #objects: SqliteObjectStore;
  readonly #tables: SqliteTableStore;
  readonly #values: SqliteValueStore;
  readonly #files: SqliteFileStore;
  readonly #feedback: SqliteFeedbackStore;
  readonly #labels: SqliteLabelStore;
  readonly #sessions: SqliteSessionQuery;
  readonly #spanUsage: SqliteSpanUsageStore;
  readonly #writer: CallWriter;
  /** Metrics rollups and monitoring state (kept by ingest, read by the monitoring routes). */
  readonly monitoring: MonitorStorage;
  /** The same part with its ingest side (`rollups`), which only this storage's transactions call. */
  readonly #monitoring: SqliteMonitorStorage;
  /** Retention and deletion (`LifecycleStorage`). */
  readonly lifecycle: LifecycleStorage;
  /** WAL checkpoints off the request thread (none for `:memory:`, which has no WAL). */
  readonly #checkpointer: WalCheckpointer | undefined;
  #closing: Promise<void> | undefined;

  constructor({ path, writerThread = false }: SqliteStorageOptions) {
    const memory = path === ':memory:';
    if (!memory) createOwnerOnly(path);
    this.#db = new Database(path);
    for (const pragma of PRAGMAS) this.#db.pragma(pragma);
    // Migrations finish before the writer thread opens its connection.
    migrate(this.#db);
    this.#calls = new SqliteCallStore(this.#db);
    this.#writer =
      writerThread && !memory
        ? new WorkerCallWriter({ path, sql: UPSERT, pragmas: PRAGMAS })
        : new InlineCallWriter({ calls: this.#calls });
    this.#feedback = new SqliteFeedbackStore(this.#db);
    this.#query = new SqliteCallQuery(this.#db, { feedback: this.#feedback });
    this.#labels = new SqliteLabelStore(this.#db);
    const pins = new SqliteContentPins(this.#db);
    this.#objects = new SqliteObjectStore(this.#db, { labels: this.#labels, pins });
    this.#sessions = new SqliteSessionQuery(this.#db);
    this.#spanUsage = new SqliteSpanUsageStore(this.#db);
    this.#tables = new SqliteTableStore(this.#db, { pins });
    this.#files = new SqliteFileStore(this.#db);
    this.#values = new SqliteValueStore(this.#db);
    this.#checkpointer = memory ? undefined : new WalCheckpointer({ path });
    this.monitoring = this.#monitoring = new SqliteMonitorStorage(this.#db, {
      feedback: this.#feedback,
      open: () => this.#open(),
      committed: () => this.#checkpointer?.committed(),
    });
    this.lifecycle = new SqliteLifecycle(this.#db, {
      rollups: this.#monitoring.rollups,
      open: () => this.#open(),
      committed: () => this.#checkpointer?.committed(),
    });
  }

  /** The schema version after migrations, for diagnostics. */
  get schemaVersion(): number {
    return this.#open().prepare('SELECT MAX(version) FROM weft_migrations').pluck().get() as number;
  }

  async ingestCalls(project: string, items: readonly CallItem[]): Promise<{ accepted: number }> {
    return this.#ingestRows(project, items, undefined, this.#rollupFollowUp(project, items));
  }

  /** The rollups' share of a batch (`SqliteRollupStore`): in its transaction, or in one of its own right after. */
  #rollupFollowUp(project: string, items: readonly CallItem[]): BatchFollowUp {
    return {
      inTransaction: () => this.#monitoring.rollups.applyCalls(project, items),
      alone: () => this.#inTransaction(() => this.#monitoring.rollups.applyCalls(project, items)),
    };
  }

  /**
   * Encodes and writes `items`; `spanUsages[i]`, when given, is item i's
   * stored span usage; `followUp` runs with the batch (see {@link BatchFollowUp}).
   */
  async #ingestRows(
    project: string,
    items: readonly CallItem[],
    spanUsages: readonly string[] | undefined,
    followUp: BatchFollowUp | undefined,
  ): Promise<{ accepted: number }> {
    this.#open();
    // Encoding happens here, before anything is written: a record that cannot
    // be encoded (nested too deep, say) fails the batch, naming the item,
    // without touching the database.
    const rows = items.map((item, index) => {
      try {
        return upsertRow(project, item, spanUsages?.[index] ?? null);
      } catch (error) {
        throw new InvalidRequestError(
          [{ path: `items.${index}`, index, message: `cannot be stored: ${(error as Error).message}` }],
          'body',
        );
      }
    });
    await this.#writer.write(rows, followUp);
    return this.#committed({ accepted: items.length });
  }

  async ingestSpanCalls(project: string, spans: readonly SpanCallPut[]): Promise<{ accepted: number }> {
    // The span usage goes in with the upsert (one write per span); the roll-up reads it back for other batches' spans.
    const { calls, followUp } = this.#spanUsage.batch(project, spans, (summaries) =>
      this.#monitoring.rollups.applyCalls(project, calls, summaries),
    );
    return this.#ingestRows(project, calls, spans.map(encodeSpanUsage), followUp);
  }

  async queryCalls(query: CallQueryParsed): Promise<CallQueryResponse> {
    this.#open();
    return this.#query.run(query);
  }

  async readCall(project: string, id: string): Promise<Call | undefined> {
    this.#open();
    const call = this.#calls.read(project, id);
    if (call !== undefined) call.feedback = this.#feedback.forCalls(project, [id]).get(id) ?? [];
    return call;
  }

  async traceCalls(project: string, traceId: string, limit: number): Promise<Call[]> {
    this.#open();
    return this.#calls.trace(project, traceId, limit);
  }

  async traceColumns(project: string, traceId: string, limit: number): Promise<TraceColumnsResponse> {
    // One past the limit tells whether the trace holds more.
    const calls = await this.traceCalls(project, traceId, limit + 1);
    return traceColumnsOf(project, traceId, calls.slice(0, limit), calls.length > limit);
  }

  async putFeedback(project: string, items: readonly FeedbackItem[]): Promise<{ stored: number }> {
    this.#open();
    // The feedback and its rollups in one transaction; only ids not stored before are counted.
    const stored = this.#inTransaction(() => {
      const fresh = this.#monitoring.rollups.newFeedback(project, items);
      const count = this.#feedback.put(project, items);
      this.#monitoring.rollups.applyFeedback(project, fresh);
      return count;
    });
    return this.#committed({ stored });
  }

  async listFeedback(project: string, callId: string): Promise<Feedback[]> {
    this.#open();
    return this.#feedback.forCalls(project, [callId]).get(callId) ?? [];
  }

  async querySessions(query: SessionQueryParsed): Promise<SessionQueryResponse> {
    this.#open();
    return this.#sessions.run(query);
  }

  async listProjects(): Promise<ProjectListResponse['projects']> {
    this.#open();
    return this.#sessions.projects();
  }

  async setObjectLabel(
    project: string,
    name: string,
    label: string,
    version: { version: number } | { digest: string },
  ): Promise<ObjectLabel | undefined> {
    this.#open();
    return this.#committed(this.#labels.set(project, name, label, version));
  }

  async listObjectLabels(project: string, name: string): Promise<ObjectLabel[]> {
    this.#open();
    return this.#labels.list(project, name);
  }

  async putObject(object: ObjectPut): Promise<ObjectCreateResponse> {
    this.#open();
    return this.#committed(this.#objects.put(object));
  }

  async readObject(
    project: string,
    name: string,
    selector: VersionSelector,
  ): Promise<ObjectRead | undefined> {
    this.#open();
    return this.#objects.read(project, name, selector);
  }

  async listObjectVersions(project: string, name: string): Promise<ObjectVersion[]> {
    this.#open();
    return this.#objects.versions(project, name);
  }

  async listObjects(project: string): Promise<ObjectListResponse['objects']> {
    this.#open();
    return this.#objects.list(project);
  }

  async putTable(table: TablePut): Promise<TableCreateResponse> {
    this.#open();
    return this.#committed(this.#tables.put(table));
  }

  async putTableRows(
    project: string,
    rows: readonly { digest: string; canonicalValue: string }[],
  ): Promise<{ stored: number }> {
    this.#open();
    return this.#committed(this.#tables.putRows(project, rows));
  }

  async knownTableRows(project: string, digests: readonly string[]): Promise<string[]> {
    this.#open();
    return this.#tables.known(project, digests);
  }

  async tableRowDigests(project: string, digest: string): Promise<string[] | undefined> {
    this.#open();
    return this.#tables.rowDigests(project, digest);
  }

  async readTableRows(
    project: string,
    digest: string,
    offset: number,
    limit: number,
  ): Promise<TableRowsResponse | undefined> {
    this.#open();
    return this.#tables.rows(project, digest, offset, limit);
  }

  async putValues(project: string, values: readonly StoredValue[]): Promise<{ stored: number }> {
    this.#open();
    return this.#committed({ stored: this.#values.put(project, values) });
  }

  async readValues(project: string, digests: readonly string[]): Promise<Map<string, StoredValue>> {
    this.#open();
    return this.#values.read(project, digests);
  }

  async knownValues(project: string, digests: readonly string[]): Promise<string[]> {
    this.#open();
    return this.#values.known(project, digests);
  }

  async putFile(project: string, digest: string, bytes: Uint8Array): Promise<{ created: boolean }> {
    this.#open();
    return this.#committed(this.#files.put(project, digest, bytes));
  }

  async readFile(project: string, digest: string): Promise<Uint8Array | undefined> {
    this.#open();
    return this.#files.read(project, digest);
  }

  /** Lets batches already handed to the writer commit, then closes every connection. Idempotent. */
  close(): Promise<void> {
    if (this.#closing === undefined) {
      this.#closing = this.#writer
        .close()
        .then(() => this.#checkpointer?.close())
        .then(() => {
          // The last connection to close checkpoints what is left and removes the WAL.
          this.#db.close();
        });
    }
    return this.#closing;
  }

  /** `result` of a write that committed, after telling the checkpointer. */
  #committed<T>(result: T): T {
    this.#checkpointer?.committed();
    return result;
  }

  /** Runs `work` in one IMMEDIATE transaction (a savepoint inside the caller's when there is one). */
  #inTransaction<T>(work: () => T): T {
    const run = this.#db.transaction(work);
    return this.#db.inTransaction ? run() : run.immediate();
  }

  #open(): Database.Database {
    if (this.#closing !== undefined) throw new StorageClosedError();
    return this.#db;
  }
}

/**
 * Creates the database's folder (0700) and file (0600) when missing, so
 * traces are readable by the server's user only: SQLite would create the file
 * 0644, and it gives the `-wal` and `-shm` files the mode of the database
 * file. Existing files and folders keep the mode they have.
 */
function createOwnerOnly(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
}
