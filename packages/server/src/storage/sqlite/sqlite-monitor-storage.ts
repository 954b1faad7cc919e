import type { Database } from 'better-sqlite3';
import type { LogEntry, MonitorStateStorage, RollupStorage, StateDocument } from '../monitor-storage.js';
import type {
  CallRollupRow,
  CompletedCalls,
  FeedbackRollupRead,
  FeedbackRollupRow,
  RollupRead,
} from '../rollup/index.js';
import { SqliteMonitorStateStore } from './monitor-state-store.js';
import { SqliteRollupReader } from './rollup-reader.js';
import { type FeedbackSource, SqliteRollupStore } from './rollup-store.js';

/** What `SqliteStorage` lends its monitoring part. */
export interface SqliteMonitorStorageOptions {
  feedback: FeedbackSource;
  /** Throws `WEFT_STORAGE_CLOSED` once the storage is closing. */
  open(): void;
  /** Tells the WAL checkpointer that a write committed. */
  committed(): void;
}

/**
 * The monitoring part of `SqliteStorage`: rollup reads and upkeep (the
 * ingest path calls `rollups` inside its own transactions), and the
 * monitoring documents and logs.
 */
export class SqliteMonitorStorage implements RollupStorage, MonitorStateStorage {
  /** @internal The ingest side: `SqliteStorage` runs it in the transactions that store calls and feedback. */
  readonly rollups: SqliteRollupStore;
  readonly #db: Database;
  readonly #reader: SqliteRollupReader;
  readonly #state: SqliteMonitorStateStore;
  readonly #options: SqliteMonitorStorageOptions;

  constructor(db: Database, options: SqliteMonitorStorageOptions) {
    this.#db = db;
    this.#options = options;
    this.rollups = new SqliteRollupStore(db, { feedback: options.feedback });
    this.#reader = new SqliteRollupReader(db);
    this.#state = new SqliteMonitorStateStore(db);
  }

  async readCallRollups(read: RollupRead): Promise<CallRollupRow[]> {
    this.#options.open();
    return this.#reader.calls(read);
  }

  async readFeedbackRollups(read: FeedbackRollupRead): Promise<FeedbackRollupRow[]> {
    this.#options.open();
    return this.#reader.feedback(read);
  }

  async completedCalls(project: string, cursor: string | undefined, limit: number): Promise<CompletedCalls> {
    this.#options.open();
    const after = cursor === undefined ? 0 : Number(cursor);
    return this.#reader.completions(project, Number.isSafeInteger(after) ? after : 0, limit);
  }

  async completionsEnd(project: string): Promise<string | undefined> {
    this.#options.open();
    return this.#reader.completionsEnd(project);
  }

  async forgetCalls(project: string, ids: readonly string[]): Promise<{ forgotten: number }> {
    return this.#write(() => ({ forgotten: this.rollups.forgetCalls(project, ids) }));
  }

  async dropRollupsBefore(project: string, beforeMs: number): Promise<void> {
    this.#write(() => this.rollups.dropBefore(project, beforeMs));
  }

  async readDocument<T>(project: string, kind: string, key: string): Promise<StateDocument<T> | undefined> {
    this.#options.open();
    return this.#state.read<T>(project, kind, key);
  }

  async listDocuments<T>(kind: string, project: string | undefined): Promise<StateDocument<T>[]> {
    this.#options.open();
    return this.#state.list<T>(kind, project);
  }

  async writeDocument<T>(
    project: string,
    kind: string,
    key: string,
    value: T,
    expectedVersion?: number,
  ): Promise<StateDocument<T> | undefined> {
    return this.#write(() => this.#state.write(project, kind, key, value, expectedVersion));
  }

  async deleteDocument(project: string, kind: string, key: string): Promise<boolean> {
    return this.#write(() => this.#state.delete(project, kind, key));
  }

  async appendLog(project: string, kind: string, key: string, entries: readonly LogEntry[]): Promise<void> {
    this.#write(() => this.#state.append(project, kind, key, entries));
  }

  async readLog<T>(
    project: string,
    kind: string,
    key: string,
    options: { limit: number; before?: number | undefined },
  ): Promise<LogEntry<T>[]> {
    this.#options.open();
    return this.#state.readLog<T>(project, kind, key, options.limit, options.before);
  }

  async trimLog(project: string, kind: string, key: string, beforeMs: number): Promise<void> {
    this.#write(() => this.#state.trim(project, kind, key, beforeMs));
  }

  /** Runs a write in one transaction and tells the checkpointer. */
  #write<T>(work: () => T): T {
    this.#options.open();
    const result = this.#db.transaction(work).immediate();
    this.#options.committed();
    return result;
  }
}
