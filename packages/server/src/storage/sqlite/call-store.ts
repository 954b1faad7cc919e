import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { Call, CallItem } from '@weft/protocol';
import { endStatus } from '../call-status.js';
import { plainOpName } from '../op-name.js';
import { searchTextOf } from '../search-text.js';
import { totalTokensOf } from '../total-tokens.js';
import type { BatchFollowUp } from './batch-follow-up.js';
import { toBlob } from './blob.js';
import { CALL_INDEX_AFTER, CALL_INDEX_BEFORE, CALL_INDEX_SETUP, callIndexKeys } from './call-index.js';
import { CALL_COLUMNS, type CallRow, LIGHT_CALL_COLUMNS, callFromRow } from './call-row.js';
import { callTermsOf, rowTermSets } from './term-sets.js';

/*
 * One statement serves start, end and complete records. `has_start` and
 * `has_end` say which half a record carries; on conflict each half replaces
 * the stored half only when the incoming record carries it, so an end-only
 * record never nulls the start fields and vice versa, and a duplicate is a
 * no-op in effect. `span_usage` (a span call's own usage, see
 * span-usage-store.ts) is written by the same statement rather than by a
 * second UPDATE per span; a record without it (the SDK's) keeps what is stored.
 * `attribute_terms` is stored as JSONB: the batch's index statements walk it
 * with `json_each` and `->>` (call-index.ts), which read JSONB without parsing
 * text (7 of 21 µs per call of 8 terms, measured). Rows written before hold
 * the same terms as JSON text, which those functions read as well.
 */
export const UPSERT = `
INSERT INTO calls (project, id, has_start, has_end, trace_id, parent_id, op_name, op_plain, display_name,
  started_at, inputs, attributes, ended_at, output, exception, summary, latency_given, status,
  session_id, search_inputs, attribute_terms, search_output, total_tokens, cost_usd, span_usage)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, jsonb(?), ?, ?, ?, ?)
ON CONFLICT (project, id) DO UPDATE SET
  trace_id = CASE WHEN excluded.has_start THEN excluded.trace_id ELSE trace_id END,
  parent_id = CASE WHEN excluded.has_start THEN excluded.parent_id ELSE parent_id END,
  op_name = CASE WHEN excluded.has_start THEN excluded.op_name ELSE op_name END,
  op_plain = CASE WHEN excluded.has_start THEN excluded.op_plain ELSE op_plain END,
  display_name = CASE WHEN excluded.has_start THEN excluded.display_name ELSE display_name END,
  started_at = CASE WHEN excluded.has_start THEN excluded.started_at ELSE started_at END,
  inputs = CASE WHEN excluded.has_start THEN excluded.inputs ELSE inputs END,
  attributes = CASE WHEN excluded.has_start THEN excluded.attributes ELSE attributes END,
  ended_at = CASE WHEN excluded.has_end THEN excluded.ended_at ELSE ended_at END,
  output = CASE WHEN excluded.has_end THEN excluded.output ELSE output END,
  exception = CASE WHEN excluded.has_end THEN excluded.exception ELSE exception END,
  summary = CASE WHEN excluded.has_end THEN excluded.summary ELSE summary END,
  latency_given = CASE WHEN excluded.has_end THEN excluded.latency_given ELSE latency_given END,
  status = CASE WHEN excluded.has_end THEN excluded.status ELSE status END,
  session_id = CASE WHEN excluded.has_start THEN excluded.session_id ELSE session_id END,
  search_inputs = CASE WHEN excluded.has_start THEN excluded.search_inputs ELSE search_inputs END,
  attribute_terms = CASE WHEN excluded.has_start THEN excluded.attribute_terms ELSE attribute_terms END,
  search_output = CASE WHEN excluded.has_end THEN excluded.search_output ELSE search_output END,
  total_tokens = CASE WHEN excluded.has_end THEN excluded.total_tokens ELSE total_tokens END,
  cost_usd = CASE WHEN excluded.has_end THEN excluded.cost_usd ELSE cost_usd END,
  span_usage = COALESCE(excluded.span_usage, span_usage),
  has_start = MAX(has_start, excluded.has_start),
  has_end = MAX(has_end, excluded.has_end)
`;

/** Ingest and point reads of calls in SQLite. */
export class SqliteCallStore {
  readonly #upsert: Statement;
  readonly #read: Statement;
  readonly #trace: Statement;
  readonly #writeRows: Transaction<(rows: readonly UpsertRow[], followUp?: BatchFollowUp) => void>;
  readonly #writeBatches: Transaction<(batches: readonly RowBatch[]) => void>;

  constructor(db: Database) {
    this.#upsert = db.prepare(UPSERT);
    this.#read = db.prepare(
      `SELECT ${CALL_COLUMNS} FROM calls WHERE project = ? AND id = ? AND has_start = 1`,
    );
    // By the (project, trace_id, started_at, id) index; values left out (see `Storage.traceCalls`).
    this.#trace = db.prepare(
      `SELECT ${LIGHT_CALL_COLUMNS} FROM calls WHERE project = ? AND trace_id = ? AND has_start = 1 ORDER BY started_at, id LIMIT ?`,
    );
    db.exec(CALL_INDEX_SETUP);
    const before = CALL_INDEX_BEFORE.map((sql) => db.prepare(sql));
    const after = CALL_INDEX_AFTER.map((sql) => db.prepare(sql));
    // One transaction per batch: one WAL commit instead of one per row, and
    // the search indexes brought up to date once for the batch (see call-index.ts).
    const writeBatch = (rows: readonly UpsertRow[], followUp?: BatchFollowUp) => {
      const keys = callIndexKeys(rows);
      for (const statement of before) statement.run(keys);
      for (const row of rows) this.#upsert.run(row);
      for (const statement of after) statement.run(keys);
      followUp?.inTransaction();
    };
    this.#writeRows = db.transaction(writeBatch);
    this.#writeBatches = db.transaction((batches: readonly RowBatch[]) => {
      for (const { rows, followUp } of batches) writeBatch(rows, followUp);
    });
  }

  /**
   * Writes several batches, one after another as {@link write} would, in
   * one IMMEDIATE transaction: one commit for all (see `InlineCallWriter`).
   */
  writeBatches(batches: readonly RowBatch[]): void {
    this.#writeBatches.immediate(batches);
  }

  /**
   * Writes prepared rows (see {@link upsertRow}) in one transaction on this
   * thread, and `followUp` in the same transaction. With a follow-up the
   * transaction is IMMEDIATE: what the follow-up reads (the roll-up's
   * ancestors) cannot change under it.
   */
  write(rows: readonly UpsertRow[], followUp?: BatchFollowUp): void {
    if (followUp === undefined) this.#writeRows(rows);
    else this.#writeRows.immediate(rows, followUp);
  }

  read(project: string, id: string): Call | undefined {
    const row = this.#read.get(project, id) as CallRow | undefined;
    return row === undefined ? undefined : callFromRow(row);
  }

  /** Every call of a trace, light (see `Storage.traceCalls`). */
  trace(project: string, traceId: string, limit: number): Call[] {
    return (this.#trace.all(project, traceId, limit) as CallRow[]).map(callFromRow);
  }
}

/** One ingest batch's rows (all of one project) and the work that goes with them. */
export interface RowBatch {
  rows: readonly UpsertRow[];
  followUp?: BatchFollowUp;
}

/** Positions of the msgpack blob parameters in an {@link UpsertRow}: inputs, attributes, output, exception, summary. */
export const BLOB_PARAMS: readonly number[] = [10, 11, 13, 14, 15];

/** Parameters of {@link UPSERT} for one record, in order: plain values and msgpack blobs only. */
export type UpsertRow = unknown[];

/**
 * Turns a record into the parameters of {@link UPSERT}. Values are encoded
 * here, once, so a writer (on this thread or a worker) only binds them.
 * `spanUsage`: a span call's own usage as `encodeSpanUsage` stores it
 * (`null` for a record the SDK sent).
 */
export function upsertRow(project: string, item: CallItem, spanUsage: string | null = null): UpsertRow {
  const start = item.type === 'end' ? undefined : item;
  const end = item.type === 'start' ? undefined : item;
  const terms = start ? callTermsOf(start.attributes) : undefined;
  const row: UpsertRow = [
    project,
    item.id,
    start ? 1 : 0,
    end ? 1 : 0,
    start?.traceId ?? null,
    start?.parentId ?? null,
    start?.opName ?? null,
    start ? plainOpName(start.opName) : null,
    start?.displayName ?? null,
    start?.startedAt ?? null,
    start ? toBlob(start.inputs) : null,
    start ? toBlob(start.attributes) : null,
    end?.endedAt ?? null,
    end ? toBlob(end.output) : null,
    end ? toBlob(end.exception) : null,
    end ? toBlob(end.summary) : null,
    end?.summary?.latencyMs ?? null,
    end ? endStatus(end) : 'running',
    start?.sessionId ?? null,
    start ? searchTextOf(start.inputs) : null,
    terms?.json ?? null,
    end ? searchTextOf(end.output ?? end.exception?.message ?? null) : null,
    end ? totalTokensOf(end.summary) : null,
    end?.summary?.costUsd ?? null,
    spanUsage,
  ];
  // The batch's index statements store the set (call-index.ts); the row itself holds only bound values.
  if (terms?.set !== undefined) rowTermSets.set(row, terms.set);
  return row;
}
