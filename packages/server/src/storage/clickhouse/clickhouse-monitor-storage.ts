import type { ClickHouseSettings } from '@clickhouse/client';
import type { LogEntry, MonitorStateStorage, RollupStorage, StateDocument } from '../monitor-storage.js';
import {
  type CallRollupRow,
  type CompletedCalls,
  type FeedbackRollupRead,
  type FeedbackRollupRow,
  LEVEL_MS,
  type RollupRead,
} from '../rollup/index.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { ClickHouseMonitorStateStore } from './monitor-state-store.js';
import { ClickHouseRollupReader } from './rollup-reader.js';
import { type ClickHouseFeedbackSource, ClickHouseRollupStore } from './rollup-store.js';
import { sqlLiteral } from './sql-literal.js';

/** What `ClickHouseStorage` lends its monitoring part. */
export interface ClickHouseMonitorStorageOptions {
  connection: ClickHouseConnection;
  database: string;
  cluster: string | undefined;
  insertSettings: ClickHouseSettings;
  feedback: ClickHouseFeedbackSource;
  completionSettleMs: number;
  /** Throws `WEFT_STORAGE_CLOSED` once the storage is closing. */
  open(): void;
}

/**
 * The monitoring part of `ClickHouseStorage`: rollup reads and upkeep (the
 * ingest path calls `rollups` after it stores calls and feedback), and the
 * monitoring documents and logs.
 */
export class ClickHouseMonitorStorage implements RollupStorage, MonitorStateStorage {
  /** @internal The ingest side: `ClickHouseStorage` runs it after storing calls and feedback. */
  readonly rollups: ClickHouseRollupStore;
  readonly #reader: ClickHouseRollupReader;
  readonly #state: ClickHouseMonitorStateStore;
  readonly #options: ClickHouseMonitorStorageOptions;
  readonly #local: (table: string) => string;

  constructor(options: ClickHouseMonitorStorageOptions) {
    this.#options = options;
    const { connection, database, cluster, insertSettings } = options;
    const name = (table: string) => `${database}.${table}`;
    this.#local = (table) => (cluster === undefined ? table : `${table}_local`);
    this.rollups = new ClickHouseRollupStore({
      connection,
      insertSettings,
      feedback: options.feedback,
      tables: {
        facts: name('rollup_facts'),
        completions: name('call_completions'),
        callChanges: name('call_rollup_changes'),
        feedbackChanges: name('feedback_rollup_changes'),
        local: this.#local,
      },
    });
    this.#reader = new ClickHouseRollupReader({
      connection,
      tables: {
        calls: name('call_rollups'),
        feedback: name('feedback_rollups'),
        completions: name('call_completions'),
      },
      settleMs: options.completionSettleMs,
    });
    this.#state = new ClickHouseMonitorStateStore({
      connection,
      documents: name('monitor_documents'),
      log: name('monitor_log'),
      logLocal: this.#local(name('monitor_log')),
      insertSettings,
    });
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
    this.#options.open();
    return { forgotten: await this.rollups.forgetCalls(project, ids) };
  }

  async dropRollupsBefore(project: string, beforeMs: number): Promise<void> {
    this.#options.open();
    const { connection, database } = this.#options;
    const where = `project = ${sqlLiteral(project)}`;
    const before = sqlLiteral(beforeMs);
    const bucketEnd = `t + (level = 'm' ? ${LEVEL_MS.m} : ${LEVEL_MS.h})`;
    for (const table of ['call_rollups', 'feedback_rollups']) {
      await connection.commandOnEveryHost(
        `ALTER TABLE ${database}.${this.#local(table)} DELETE WHERE ${where} AND ${bucketEnd} <= ${before}`,
      );
    }
    await connection.commandOnEveryHost(
      `ALTER TABLE ${database}.${this.#local('rollup_facts')} DELETE WHERE ${where} AND start != '' AND visitParamExtractFloat(start, 'startedAt') < ${before}`,
    );
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
    this.#options.open();
    return this.#state.write(project, kind, key, value, expectedVersion);
  }

  async deleteDocument(project: string, kind: string, key: string): Promise<boolean> {
    this.#options.open();
    return this.#state.delete(project, kind, key);
  }

  async appendLog(project: string, kind: string, key: string, entries: readonly LogEntry[]): Promise<void> {
    this.#options.open();
    await this.#state.append(project, kind, key, entries);
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
    this.#options.open();
    await this.#state.trim(project, kind, key, beforeMs);
  }
}
