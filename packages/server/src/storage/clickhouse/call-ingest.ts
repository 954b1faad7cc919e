import type { ClickHouseSettings } from '@clickhouse/client';
import type { CallItem } from '@weft/protocol';
import { encodeMsgpack } from '@weft/protocol';
import { InvalidRequestError } from '../../errors/index.js';
import { contentRefsOf } from '../content-refs.js';
import type { SpanCallPut } from '../span-usage.js';
import { CALL_HALF_COLUMNS, type CallHalfRow, callHalfRows } from './call-halves.js';
import type { ClickHouseCallListWriter } from './call-list-writer.js';
import type { CallListRow } from './call-list-rows.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { ClickHouseContentRefStore } from './content-ref-store.js';
import { GroupCommit } from '../group-commit.js';
import type { ClickHouseRollupStore } from './rollup-store.js';
import { ClickHouseSpanUsageStore } from './span-usage-store.js';
import { nextSeq } from './write-sequence.js';

/**
 * Bytes of stored values a flush carries at most (the INSERT of `calls` is
 * one JSON string: 20 KB records by the ten thousand would pass what a
 * string can hold). A request larger than this still goes, alone.
 */
const MAX_BYTES_PER_FLUSH = 32 * 1024 * 1024;

/** One ingest request, encoded, waiting for its flush. */
interface CallBatch {
  project: string;
  items: readonly CallItem[];
  rows: CallHalfRow[];
  refs: Record<string, string | number>[];
  /** OTLP spans: their usage rolls up their traces after the flush's inserts. */
  spans: readonly SpanCallPut[] | undefined;
}

/** What the ingest writes to, lent by `ClickHouseStorage`. */
export interface ClickHouseCallIngestOptions {
  connection: ClickHouseConnection;
  calls: string;
  refsTable: string;
  insertSettings: ClickHouseSettings;
  listWriter: ClickHouseCallListWriter;
  rollups: ClickHouseRollupStore;
  spanUsage: ClickHouseSpanUsageStore;
}

/**
 * The insert path of calls (native records and OTLP spans). Requests are
 * encoded as they arrive (a record that cannot be encoded fails its own
 * request, naming the item, and nothing of it is written), then join a
 * group commit (`GroupCommit`): every request waiting when a flush starts
 * is written by it with ONE INSERT per table — content refs, call halves,
 * list rows, then per project the OTLP usage roll-up and the rollups — and each request
 * is answered after that flush has committed. Under load, a replica sends
 * a handful of INSERTs per flush whatever the number of requests, each
 * carrying thousands of rows.
 *
 * Durability: a request is acknowledged only after ClickHouse answered
 * every INSERT of its flush (synchronous inserts: the rows are in parts on
 * disk); a replica killed before that never acknowledged the request, and
 * the client's retry writes it again (writes are idempotent).
 */
export class ClickHouseCallIngest {
  readonly #o: ClickHouseCallIngestOptions;
  readonly #commit: GroupCommit<CallBatch>;

  constructor(options: ClickHouseCallIngestOptions) {
    this.#o = options;
    this.#commit = new GroupCommit((batches) => this.#flush(batches), MAX_BYTES_PER_FLUSH);
  }

  /** Stores native call records (see `Storage.ingestCalls`). */
  async calls(project: string, items: readonly CallItem[]): Promise<void> {
    const rows = encodeBatch(project, items, (_, half) => half);
    await this.#commit.submit(
      { project, items, rows, refs: refRows(project, items), spans: undefined },
      sizeOf(rows),
    );
  }

  /** Stores calls made from OTLP spans, then rolls their usage up (see `Storage.ingestSpanCalls`). */
  async spans(project: string, spans: readonly SpanCallPut[]): Promise<void> {
    const items = spans.map((span) => span.call);
    const rows = encodeBatch(project, items, (index, half) =>
      ClickHouseSpanUsageStore.markStartRows(half, spans[index] as SpanCallPut),
    );
    await this.#commit.submit({ project, items, rows, refs: refRows(project, items), spans }, sizeOf(rows));
  }

  /** Settles once every submitted request has been flushed (closing). */
  idle(): Promise<void> {
    return this.#commit.idle();
  }

  async #flush(batches: readonly CallBatch[]): Promise<void> {
    const { connection, insertSettings, listWriter } = this.#o;
    // What the calls refer to (values, files), for deletion and retention:
    // before the calls, so a collection never sees a call without its refs.
    await connection.insertColumns(
      this.#o.refsTable,
      ClickHouseContentRefStore.COLUMNS,
      batches.flatMap((b) => b.refs),
      insertSettings,
    );
    await connection.insertColumns(
      this.#o.calls,
      CALL_HALF_COLUMNS,
      batches.flatMap((b) => b.rows),
      insertSettings,
    );
    // The halves first: the list rows of a partial record are rebuilt from
    // what `calls` holds (see ClickHouseCallListWriter).
    const listRows: CallListRow[] = [];
    for (const [project, rows] of byProject(batches, (b) => b.rows)) {
      listRows.push(...(await listWriter.rowsAfterHalves(project, rows)));
    }
    await listWriter.insert(listRows);
    // Per project: OTLP spans roll usage up their traces (one read of the
    // touched traces for every span batch of the flush), then one rollup
    // update takes every record and the summaries the roll-up rewrote.
    for (const [project, group] of byProject(batches, (b) => [b])) {
      const spans = group.flatMap((b) => b.spans ?? []);
      const summaries = await this.#o.spanUsage.rollUp(project, spans);
      if (summaries.size > 0) await listWriter.refresh(project, [...summaries.keys()]);
      await this.#o.rollups.applyCalls(
        project,
        group.flatMap((b) => b.items),
        summaries,
      );
    }
  }
}

/**
 * The half-rows of a request's records, each with its own `seq` (taken as
 * the request arrives: a later request's copy of a half wins). `finish`
 * adjusts the half-rows of the item at an index.
 */
function encodeBatch(
  project: string,
  items: readonly CallItem[],
  finish: (index: number, rows: CallHalfRow[]) => CallHalfRow[],
): CallHalfRow[] {
  const rows: CallHalfRow[] = [];
  for (const [index, item] of items.entries()) {
    try {
      rows.push(...finish(index, callHalfRows(project, item, nextSeq(), encodeMsgpack)));
    } catch (error) {
      throw new InvalidRequestError(
        [{ path: `items.${index}`, index, message: `cannot be stored: ${(error as Error).message}` }],
        'body',
      );
    }
  }
  return rows;
}

/**
 * About the bytes `rows` take as TabSeparated: their stored values and
 * their text (the rest is a few hundred bytes a row). Each column by name:
 * a loop over column names made a keyed load per column and row (2% of
 * ingest's CPU).
 */
function sizeOf(rows: readonly CallHalfRow[]): number {
  let bytes = 0;
  for (const row of rows) {
    bytes +=
      256 +
      lengthOf(row.inputs) +
      lengthOf(row.attributes) +
      lengthOf(row.output) +
      lengthOf(row.exception) +
      lengthOf(row.summary) +
      lengthOf(row.search_start) +
      lengthOf(row.search_end);
  }
  return bytes;
}

function lengthOf(value: unknown): number {
  return typeof value === 'string' ? value.length : 0;
}

/** The `content_refs` rows of a request's records. */
function refRows(project: string, items: readonly CallItem[]): Record<string, string | number>[] {
  return ClickHouseContentRefStore.rows(
    project,
    items.flatMap((item) => {
      const keys = contentRefsOf(
        item.type === 'end' ? undefined : item.inputs,
        item.type === 'end' ? undefined : item.attributes,
        item.type === 'start' ? undefined : item.output,
      );
      return keys === null ? [] : [{ source: `c:${item.id}`, keys }];
    }),
  );
}

/** `pick` of each batch, concatenated per project (in submission order). */
function byProject<T>(
  batches: readonly CallBatch[],
  pick: (batch: CallBatch) => readonly T[],
): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const batch of batches) {
    const list = out.get(batch.project) ?? [];
    for (const value of pick(batch)) list.push(value);
    out.set(batch.project, list);
  }
  return out;
}
