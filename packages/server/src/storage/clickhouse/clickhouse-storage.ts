import type { ClickHouseSettings } from '@clickhouse/client';
import {
  type Call,
  type CallItem,
  type CallQueryParsed,
  type CallQueryResponse,
  type Feedback,
  type FeedbackItem,
  type ObjectCreateResponse,
  type ObjectLabel,
  type ObjectListResponse,
  type ObjectRead,
  type ObjectVersion,
  type ProjectListResponse,
  type SessionQueryParsed,
  type SessionQueryResponse,
  type TableCreateResponse,
  type TableRowsResponse,
  type TraceColumnsResponse,
  callsOfTraceColumns,
} from '@weft/protocol';
import { StorageClosedError } from '../../errors/index.js';
import type { SpanCallPut } from '../span-usage.js';
import type { ObjectPut, Storage, TablePut, VersionSelector } from '../storage.js';
import { callFromFolded } from './call-columns.js';
import { ClickHouseCallQuery } from './call-query.js';
import { ClickHouseCallListWriter } from './call-list-writer.js';
import { ClickHouseCallIngest } from './call-ingest.js';
import { listTimeSql } from './list-schema.js';
import { type ClickHouseServer, detectServer, type SchemaProfile, storedProfile } from './schema-profile.js';
import { clickHouseConnectionOf, clickHouseOpenOptions } from './clickhouse-open.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import type { ClickHouseStorageOptions } from './clickhouse-storage-options.js';
import { ClickHouseContentRefStore } from './content-ref-store.js';
import { ClickHouseFeedbackStore } from './feedback-store.js';
import { ClickHouseLifecycle } from './clickhouse-lifecycle.js';
import { ClickHouseRowDeleter } from './row-deleter.js';
import { ClickHouseFileStore } from './file-store.js';
import { ClickHouseLabelStore } from './label-store.js';
import { ClickHouseMonitorStorage } from './clickhouse-monitor-storage.js';
import { migrate } from './migrations.js';
import { ClickHouseObjectStore } from './object-store.js';
import { ClickHouseSessionQuery } from './session-query.js';
import { ClickHouseSpanUsageStore } from './span-usage-store.js';
import { ClickHouseTableStore } from './table-store.js';
import { ClickHouseValueStore } from './value-store.js';
import type { StoredValue } from '../stored-value.js';

/**
 * The scale-out storage engine: ClickHouse over HTTP, same contract as
 * `SqliteStorage`. It keeps no state between requests, so any number of
 * `weft serve` replicas can share one database (or, with `cluster`, one
 * sharded cluster). Writes are idempotent row inserts folded at read time
 * (see `schema.ts`); every value enters SQL through `sqlLiteral`.
 */
export class ClickHouseStorage implements Storage {
  readonly #connection: ClickHouseConnection;
  readonly #calls: ClickHouseCallQuery;
  readonly #callsTable: string;
  readonly #insertSettings: ClickHouseSettings;
  readonly #objects: ClickHouseObjectStore;
  readonly #tables: ClickHouseTableStore;
  readonly #values: ClickHouseValueStore;
  readonly #files: ClickHouseFileStore;
  readonly #feedback: ClickHouseFeedbackStore;
  readonly #labels: ClickHouseLabelStore;
  readonly #sessions: ClickHouseSessionQuery;
  readonly #ingest: ClickHouseCallIngest;
  readonly #schemaVersion: number;
  /** Metrics rollups and monitoring state (kept by ingest, read by the monitoring routes). */
  readonly monitoring: ClickHouseMonitorStorage;
  /** Retention and deletion (`LifecycleStorage`). */
  readonly lifecycle: ClickHouseLifecycle;
  readonly #refs: ClickHouseContentRefStore;
  #closing: Promise<void> | undefined;

  private constructor(
    connection: ClickHouseConnection,
    database: string,
    cluster: string | undefined,
    schemaVersion: number,
    completionSettleMs: number,
    profile: SchemaProfile,
    server: ClickHouseServer,
  ) {
    this.#connection = connection;
    this.#schemaVersion = schemaVersion;
    // Through a Distributed table, wait until every shard has the rows, so
    // a read that follows the response sees them (read-your-writes).
    this.#insertSettings = cluster === undefined ? {} : { insert_distributed_sync: 1 };
    const name = (table: string) => `${database}.${table}`;
    this.#callsTable = name('calls');
    const insertSettings = this.#insertSettings;
    this.#feedback = new ClickHouseFeedbackStore({ connection, table: name('feedback'), insertSettings });
    const list = name('call_list');
    const trace = name('call_trace');
    const time = listTimeSql(profile);
    this.#calls = new ClickHouseCallQuery({
      connection,
      list,
      latency: profile.kind === 'modern' ? name('call_latency') : undefined,
      calls: this.#callsTable,
      trace,
      feedback: this.#feedback,
      time,
      profile,
    });
    this.#objects = new ClickHouseObjectStore({ connection, table: name('objects'), insertSettings });
    this.#labels = new ClickHouseLabelStore({
      connection,
      table: name('object_labels'),
      insertSettings,
      objects: this.#objects,
    });
    this.#sessions = new ClickHouseSessionQuery({
      connection,
      calls: this.#callsTable,
      list,
      time,
      objects: name('objects'),
    });
    this.#tables = new ClickHouseTableStore({
      connection,
      names: { tables: name('tables'), order: name('table_order'), rows: name('table_rows') },
      insertSettings,
    });
    this.#files = new ClickHouseFileStore({ connection, table: name('files'), insertSettings });
    this.#values = new ClickHouseValueStore({ connection, table: name('call_values'), insertSettings });
    this.monitoring = new ClickHouseMonitorStorage({
      connection,
      database,
      cluster,
      insertSettings,
      feedback: this.#feedback,
      completionSettleMs,
      open: () => this.#open(),
    });
    this.#refs = new ClickHouseContentRefStore({ connection, table: name('content_refs'), insertSettings });
    this.#ingest = new ClickHouseCallIngest({
      connection,
      calls: this.#callsTable,
      refsTable: this.#refs.table,
      insertSettings,
      listWriter: new ClickHouseCallListWriter({
        connection,
        calls: this.#callsTable,
        list,
        trace,
        insertSettings,
        profile,
      }),
      rollups: this.monitoring.rollups,
      spanUsage: new ClickHouseSpanUsageStore({ connection, table: this.#callsTable, insertSettings }),
    });
    this.lifecycle = new ClickHouseLifecycle({
      connection,
      tables: {
        calls: this.#callsTable,
        list,
        trace,
        latency: profile.kind === 'modern' ? name('call_latency') : undefined,
        feedback: name('feedback'),
        values: name('call_values'),
        files: name('files'),
      },
      refs: this.#refs,
      deleter: new ClickHouseRowDeleter({ connection, database, cluster, server }),
      insertSettings,
      forgetCalls: (project, ids) => this.monitoring.forgetCalls(project, ids),
      open: () => this.#open(),
    });
  }

  /**
   * Connects, creates the database and migrates the schema (safe when several
   * replicas start at once), then returns the storage. Throws
   * `WEFT_INVALID_OPTIONS` for bad options and `WEFT_STORAGE_UNAVAILABLE`
   * when ClickHouse cannot be reached.
   */
  static async open(input: ClickHouseStorageOptions): Promise<ClickHouseStorage> {
    const options = clickHouseOpenOptions(input);
    const connection = await clickHouseConnectionOf(options);
    try {
      const server = await detectServer(connection);
      const version = await migrate(connection, options.database, options.cluster, server);
      const profile = await storedProfile(connection, options.database, 'call_list');
      if (profile === undefined) throw new Error(`the migrations left no ${options.database}.call_list`);
      return new ClickHouseStorage(
        connection,
        options.database,
        options.cluster,
        version,
        options.completionSettleMs,
        profile,
        server,
      );
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  /** The schema version after migrations, for diagnostics. */
  get schemaVersion(): number {
    return this.#schemaVersion;
  }

  async ingestCalls(project: string, items: readonly CallItem[]): Promise<{ accepted: number }> {
    this.#open();
    await this.#ingest.calls(project, items);
    return { accepted: items.length };
  }

  async ingestSpanCalls(project: string, spans: readonly SpanCallPut[]): Promise<{ accepted: number }> {
    this.#open();
    await this.#ingest.spans(project, spans);
    return { accepted: spans.length };
  }

  async queryCalls(query: CallQueryParsed): Promise<CallQueryResponse> {
    this.#open();
    return this.#calls.run(query);
  }

  async readCall(project: string, id: string): Promise<Call | undefined> {
    this.#open();
    const row = await this.#calls.readOne(project, id);
    if (row === undefined) return undefined;
    const call = callFromFolded(project, row);
    call.feedback = (await this.#feedback.forCalls(project, [id])).get(id) ?? [];
    return call;
  }

  async traceCalls(project: string, traceId: string, limit: number): Promise<Call[]> {
    this.#open();
    // The columns' calls: one statement and one reader for both shapes.
    return callsOfTraceColumns<Call>(await this.#calls.traceColumns(project, traceId, limit));
  }

  async traceColumns(project: string, traceId: string, limit: number): Promise<TraceColumnsResponse> {
    this.#open();
    return this.#calls.traceColumns(project, traceId, limit);
  }

  async putFeedback(project: string, items: readonly FeedbackItem[]): Promise<{ stored: number }> {
    this.#open();
    const stored = await this.#feedback.put(project, items);
    await this.monitoring.rollups.applyFeedback(project, stored);
    return { stored: stored.length };
  }

  async listFeedback(project: string, callId: string): Promise<Feedback[]> {
    this.#open();
    return (await this.#feedback.forCalls(project, [callId])).get(callId) ?? [];
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
    return this.#labels.set(project, name, label, version);
  }

  async listObjectLabels(project: string, name: string): Promise<ObjectLabel[]> {
    this.#open();
    return this.#labels.list(project, name);
  }

  async putObject(object: ObjectPut): Promise<ObjectCreateResponse> {
    this.#open();
    await this.#refs.pin(object.project, [object.canonicalValue]);
    return this.#objects.put(object);
  }

  async readObject(
    project: string,
    name: string,
    selector: VersionSelector,
  ): Promise<ObjectRead | undefined> {
    this.#open();
    if ('label' in selector) {
      const digest = await this.#labels.digestOf(project, name, selector.label);
      return digest === undefined ? undefined : this.#objects.read(project, name, { digest });
    }
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
    await this.#refs.pin(
      table.project,
      table.rows.map((row) => row.canonicalValue),
    );
    return this.#tables.put(table);
  }

  async putTableRows(
    project: string,
    rows: readonly { digest: string; canonicalValue: string }[],
  ): Promise<{ stored: number }> {
    this.#open();
    await this.#refs.pin(
      project,
      rows.map((row) => row.canonicalValue),
    );
    return this.#tables.putRows(project, rows);
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
    const fresh = await this.#values.put(project, values);
    await this.#refs.putValues(project, fresh);
    return { stored: fresh.length };
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
    return this.#files.put(project, digest, bytes);
  }

  async readFile(project: string, digest: string): Promise<Uint8Array | undefined> {
    this.#open();
    return this.#files.read(project, digest);
  }

  /** Closes the HTTP clients once requests in flight have settled. Idempotent. */
  close(): Promise<void> {
    // Requests already taken in are written and answered before the clients close.
    this.#closing ??= this.#ingest.idle().then(() => this.#connection.close());
    return this.#closing;
  }

  #open(): void {
    if (this.#closing !== undefined) throw new StorageClosedError();
  }
}
