import type { ClickHouseSettings } from '@clickhouse/client';
import type { DeletionCounts } from '@weft/protocol';
import type { ContentRefKey } from '../content-refs.js';
import { deletionCounts, nextGarbageCursor, noDeletion, readGarbageCursor } from '../lifecycle/index.js';
import type { ExpiredTraces, GarbageCollected, LifecycleStorage } from '../lifecycle-storage.js';
import { decodeScanCursor, encodeScanCursor } from '../scan-cursor.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import type { ClickHouseContentRefStore } from './content-ref-store.js';
import { type ContentPlan, ContentPlanner } from './content-plan.js';
import type { ClickHouseRowDeleter } from './row-deleter.js';
import { inList, sqlLiteral } from './sql-literal.js';

/** What `ClickHouseStorage` lends its lifecycle part. */
export interface ClickHouseLifecycleOptions {
  connection: ClickHouseConnection;
  /** Table names (qualified with the database): `list` is `call_list`, the calls as lists and search read them. */
  tables: {
    calls: string;
    list: string;
    /** `call_trace`, the calls as the trace view reads them (see `callTraceTable`). */
    trace: string;
    /** `call_latency`, on modern servers (see `callLatencyStatements`). */
    latency: string | undefined;
    feedback: string;
    values: string;
    files: string;
  };
  refs: ClickHouseContentRefStore;
  deleter: ClickHouseRowDeleter;
  insertSettings: ClickHouseSettings;
  /** Takes calls out of the rollups (`RollupStorage.forgetCalls`). */
  forgetCalls(project: string, ids: readonly string[]): Promise<unknown>;
  /** Throws `WEFT_STORAGE_CLOSED` once the storage is closing. */
  open(): void;
}

/** Ops whose calls run an evaluation: their traces are kept whatever their age. */
const EVALUATION_OPS = ['Evaluation.evaluate', 'Evaluation.predict_and_score'];
/** Ids per `IN (…)` list. */
const CHUNK = 1_000;

/**
 * Retention and deletion on ClickHouse (`LifecycleStorage`). Rows go with
 * `ClickHouseRowDeleter` (lightweight deletes from 23.3, mutations on
 * 18.16), table by table: calls and their feedback, then what they referred
 * to (`ContentPlanner`), then the reference rows. With no transaction
 * around the steps, a value planned to go that a call ingested meanwhile
 * refers to again is written back right after (see `#restore`).
 */
export class ClickHouseLifecycle implements LifecycleStorage {
  readonly #o: ClickHouseLifecycleOptions;
  readonly #planner: ContentPlanner;

  constructor(options: ClickHouseLifecycleOptions) {
    this.#o = options;
    this.#planner = new ContentPlanner({
      connection: options.connection,
      refs: options.refs,
      values: options.tables.values,
      files: options.tables.files,
    });
  }

  async expiredTraces(
    project: string,
    beforeMs: number,
    cursor: string | undefined,
    limit: number,
  ): Promise<ExpiredTraces> {
    this.#o.open();
    const after = decodeScanCursor(cursor);
    const position =
      after === undefined
        ? ''
        : ` AND (started_at > ${sqlLiteral(after[0])} OR (started_at = ${sqlLiteral(after[0])} AND id > ${sqlLiteral(after[1])}))`;
    const rows = await this.#o.connection.rows<{ started_at: number; id: string; trace_id: string }>(
      `SELECT DISTINCT started_at, id, trace_id FROM ${this.#o.tables.calls}
       WHERE project = ${sqlLiteral(project)} AND half = 1 AND started_at < ${sqlLiteral(beforeMs)}${position}
       ORDER BY started_at, id LIMIT ${limit}`,
    );
    const traces = [...new Set(rows.map((row) => row.trace_id))];
    const newest = new Map<string, number>();
    for (let i = 0; i < traces.length; i += CHUNK) {
      const found = await this.#o.connection.rows<{ trace_id: string; newest: number }>(
        `SELECT trace_id, max(started_at) AS newest FROM ${this.#o.tables.calls}
         WHERE project = ${sqlLiteral(project)} AND half = 1 AND trace_id IN ${inList(traces.slice(i, i + CHUNK))} GROUP BY trace_id`,
      );
      for (const row of found) newest.set(row.trace_id, Number(row.newest));
    }
    const last = rows.at(-1);
    return {
      traceIds: traces.filter((id) => (newest.get(id) ?? Number.POSITIVE_INFINITY) < beforeMs),
      cursor:
        rows.length < limit || last === undefined
          ? undefined
          : encodeScanCursor(Number(last.started_at), last.id),
    };
  }

  async keptTraces(project: string, traceIds: readonly string[]): Promise<string[]> {
    this.#o.open();
    const calls = await this.#callsOf(project, traceIds);
    const kept = new Set(calls.filter((c) => EVALUATION_OPS.includes(c.op_plain)).map((c) => c.trace_id));
    const traceOf = new Map(calls.map((c) => [c.id, c.trace_id]));
    const ids = [...traceOf.keys()];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await this.#o.connection.rows<{ call_id: string }>(
        `SELECT DISTINCT call_id FROM ${this.#o.tables.feedback} WHERE project = ${sqlLiteral(project)} AND call_id IN ${inList(ids.slice(i, i + CHUNK))}`,
      );
      for (const row of rows) kept.add(traceOf.get(row.call_id) as string);
    }
    for (const id of await this.#o.refs.pinnedCalls(project, ids)) kept.add(traceOf.get(id) as string);
    return [...kept];
  }

  async measureTraces(project: string, traceIds: readonly string[]): Promise<DeletionCounts> {
    this.#o.open();
    const calls = await this.#callsOf(project, traceIds);
    const plan = await this.#plan(
      project,
      calls.map((c) => c.id),
    );
    return deletionCounts(calls, plan);
  }

  async deleteTraces(project: string, traceIds: readonly string[]): Promise<DeletionCounts> {
    this.#o.open();
    const calls = await this.#callsOf(project, traceIds);
    if (calls.length === 0) return noDeletion();
    const ids = calls.map((c) => c.id);
    const plan = await this.#plan(project, ids);
    await this.#o.forgetCalls(project, ids);
    const where = `project = ${sqlLiteral(project)}`;
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = inList(ids.slice(i, i + CHUNK));
      await this.#o.deleter.delete(tableName(this.#o.tables.calls), `${where} AND id IN ${chunk}`);
      await this.#o.deleter.delete(tableName(this.#o.tables.list), `${where} AND id IN ${chunk}`, {
        projections: true,
      });
      const latency = this.#o.tables.latency;
      if (latency !== undefined)
        await this.#o.deleter.delete(tableName(latency), `${where} AND id IN ${chunk}`);
      await this.#o.deleter.delete(tableName(this.#o.tables.feedback), `${where} AND call_id IN ${chunk}`);
    }
    // By trace, its key's prefix: a range per trace, not a scan of the project's ids.
    const traces = [...new Set(calls.map((c) => c.trace_id))];
    for (let i = 0; i < traces.length; i += CHUNK) {
      const chunk = inList(traces.slice(i, i + CHUNK));
      await this.#o.deleter.delete(tableName(this.#o.tables.trace), `${where} AND trace_id IN ${chunk}`);
    }
    await this.#removeContent(
      project,
      plan,
      ids.map((id) => `c:${id}`),
    );
    return deletionCounts(calls, plan);
  }

  async collectGarbage(
    project: string,
    storedBefore: number,
    cursor: string | undefined,
    limit: number,
  ): Promise<GarbageCollected> {
    this.#o.open();
    const { phase, after } = readGarbageCursor(cursor);
    const table = phase === 'v' ? this.#o.tables.values : this.#o.tables.files;
    const rows = await this.#o.connection.rows<{ digest: string; created: number }>(
      `SELECT digest, min(created_at) AS created FROM ${table}
       WHERE project = ${sqlLiteral(project)} AND digest > ${sqlLiteral(after)}
       GROUP BY digest ORDER BY digest LIMIT ${limit}`,
    );
    const candidates = rows
      .filter((row) => Number(row.created) < storedBefore)
      .map((row) => `${phase}:${row.digest}` as ContentRefKey);
    const plan = await this.#planner.plan(project, [], candidates);
    await this.#removeContent(project, plan, []);
    const next = nextGarbageCursor(phase, rows, limit);
    return { values: plan.values.size, files: plan.files.size, cursor: next };
  }

  /** The calls (with their starts) of `traceIds`. */
  async #callsOf(
    project: string,
    traceIds: readonly string[],
  ): Promise<{ id: string; trace_id: string; op_plain: string }[]> {
    const out: { id: string; trace_id: string; op_plain: string }[] = [];
    for (let i = 0; i < traceIds.length; i += CHUNK) {
      // Aliases unlike the columns: an alias named as a column would replace it in WHERE.
      const rows = await this.#o.connection.rows<{ id: string; f_trace: string; f_op: string }>(
        `SELECT id, any(trace_id) AS f_trace, any(op_plain) AS f_op FROM ${this.#o.tables.calls}
         WHERE project = ${sqlLiteral(project)} AND half = 1 AND trace_id IN ${inList(traceIds.slice(i, i + CHUNK))} GROUP BY id`,
      );
      for (const row of rows) out.push({ id: row.id, trace_id: row.f_trace, op_plain: row.f_op });
    }
    return out;
  }

  /** What deleting the calls `ids` would take with them. */
  async #plan(project: string, ids: readonly string[]): Promise<ContentPlan> {
    const leaving = await this.#o.refs.bySources(
      project,
      ids.map((id) => `c:${id}`),
    );
    return this.#planner.plan(project, leaving);
  }

  /** Deletes the planned values and files and the reference rows of what left, then writes back what was referred to again meanwhile. */
  async #removeContent(project: string, plan: ContentPlan, leavingSources: readonly string[]): Promise<void> {
    const where = `project = ${sqlLiteral(project)}`;
    const values = [...plan.values.keys()];
    const files = [...plan.files.keys()];
    const sources = [...leavingSources, ...values.map((digest) => `v:${digest}`)];
    for (let i = 0; i < values.length; i += CHUNK) {
      await this.#o.deleter.delete(
        tableName(this.#o.tables.values),
        `${where} AND digest IN ${inList(values.slice(i, i + CHUNK))}`,
      );
    }
    for (let i = 0; i < files.length; i += CHUNK) {
      await this.#o.deleter.delete(
        tableName(this.#o.tables.files),
        `${where} AND digest IN ${inList(files.slice(i, i + CHUNK))}`,
      );
    }
    for (let i = 0; i < sources.length; i += CHUNK) {
      await this.#o.deleter.delete(
        tableName(this.#o.refs.table),
        `${where} AND source IN ${inList(sources.slice(i, i + CHUNK))}`,
      );
    }
    await this.#restore(project, plan);
  }

  /**
   * Writes back the planned values and files that something refers to
   * again: a call ingested between the plan and the deletion (its batch was
   * told the value was stored, so the client will not send it again).
   */
  async #restore(project: string, plan: ContentPlan): Promise<void> {
    let open = [
      ...[...plan.values.keys()].map((digest) => `v:${digest}` as const),
      ...[...plan.files.keys()].map((digest) => `f:${digest}` as const),
    ];
    // Until nothing more is referred to: a value written back refers to
    // what it referred to before, which may have been planned to go too.
    while (open.length > 0) {
      const referred = await this.#o.refs.referrers(project, open);
      if (referred.size === 0) return;
      open = open.filter((key) => !referred.has(key));
      const now = Date.now();
      const values = [...plan.values.values()].filter((v) => referred.has(`v:${v.digest}`));
      await this.#o.connection.insert(
        this.#o.tables.values,
        values.map((v) => ({
          project,
          digest: v.digest,
          is_array: v.isArray,
          prev: v.prev,
          bytes_base64: v.bytesBase64,
          created_at: now,
        })),
        this.#o.insertSettings,
      );
      await this.#o.refs.put(
        project,
        values.map((v) => ({ source: `v:${v.digest}`, keys: v.refs })),
      );
      const files = [...plan.files].filter(([digest]) => referred.has(`f:${digest}`));
      await this.#o.connection.insert(
        this.#o.tables.files,
        files.map(([digest, bytes]) => ({
          project,
          digest,
          size: Buffer.byteLength(bytes, 'base64'),
          bytes_base64: bytes,
          created_at: now,
        })),
        this.#o.insertSettings,
      );
    }
  }
}

/** `calls` of `db.calls`: the deleter qualifies names itself. */
function tableName(qualified: string): string {
  return qualified.slice(qualified.indexOf('.') + 1);
}
