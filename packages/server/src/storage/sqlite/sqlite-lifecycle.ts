import type { Database, Statement } from 'better-sqlite3';
import type { DeletionCounts } from '@weft/protocol';
import type { ContentRefKey } from '../content-refs.js';
import { nextGarbageCursor, noDeletion, readGarbageCursor } from '../lifecycle/index.js';
import type { ExpiredTraces, GarbageCollected, LifecycleStorage } from '../lifecycle-storage.js';
import { decodeScanCursor, encodeScanCursor } from '../scan-cursor.js';
import { ContentCollector } from './content-collector.js';
import { type RollupForget, TraceDeleter } from './trace-deleter.js';

/** What `SqliteStorage` lends its lifecycle part. */
export interface SqliteLifecycleOptions {
  rollups: RollupForget;
  /** Throws `WEFT_STORAGE_CLOSED` once the storage is closing. */
  open(): void;
  /** Tells the WAL checkpointer that a write committed. */
  committed(): void;
}

/** Ops whose calls run an evaluation: their traces are kept whatever their age. */
const EVALUATION_OPS = JSON.stringify(['Evaluation.evaluate', 'Evaluation.predict_and_score']);

/**
 * Retention and deletion on SQLite (`LifecycleStorage`): each step is one
 * IMMEDIATE transaction over a bounded number of traces or digests, so a
 * sweep never holds the write lock for long; ingest batches wait at most
 * one step (the `busy_timeout` of their connection covers it).
 */
export class SqliteLifecycle implements LifecycleStorage {
  readonly #db: Database;
  readonly #options: SqliteLifecycleOptions;
  readonly #collector: ContentCollector;
  readonly #deleter: TraceDeleter;
  readonly #scanExpired: Statement;
  readonly #scanExpiredAfter: Statement;
  readonly #newestStart: Statement;
  readonly #kept: Statement;
  readonly #values: Statement;
  readonly #files: Statement;

  constructor(db: Database, options: SqliteLifecycleOptions) {
    this.#db = db;
    this.#options = options;
    this.#collector = new ContentCollector(db);
    this.#deleter = new TraceDeleter(db, { collector: this.#collector, rollups: options.rollups });
    const scan =
      'SELECT started_at, id, trace_id FROM calls WHERE project = ? AND has_start = 1 AND started_at < ?';
    this.#scanExpired = db.prepare(`${scan} ORDER BY started_at, id LIMIT ?`);
    this.#scanExpiredAfter = db.prepare(
      `${scan} AND (started_at, id) > (?, ?) ORDER BY started_at, id LIMIT ?`,
    );
    this.#newestStart = db
      .prepare('SELECT MAX(started_at) FROM calls WHERE project = ? AND trace_id = ?')
      .pluck();
    this.#kept = db
      .prepare(`SELECT DISTINCT c.trace_id FROM calls c
        WHERE c.project = @project AND c.trace_id IN (SELECT value FROM json_each(@traces)) AND (
          c.op_plain IN (SELECT value FROM json_each(@ops))
          OR EXISTS (SELECT 1 FROM feedback f WHERE f.project = c.project AND f.call_id = c.id)
          OR EXISTS (SELECT 1 FROM content_pins p WHERE p.project = c.project AND p.kind = 'c' AND p.target = c.id))`)
      .pluck();
    this.#values = db.prepare(
      'SELECT digest, created_at FROM call_values WHERE project = ? AND digest > ? ORDER BY digest LIMIT ?',
    );
    this.#files = db.prepare(
      'SELECT digest, created_at FROM files WHERE project = ? AND digest > ? ORDER BY digest LIMIT ?',
    );
  }

  async expiredTraces(
    project: string,
    beforeMs: number,
    cursor: string | undefined,
    limit: number,
  ): Promise<ExpiredTraces> {
    this.#options.open();
    const after = decodeScanCursor(cursor);
    const rows = (
      after === undefined
        ? this.#scanExpired.all(project, beforeMs, limit)
        : this.#scanExpiredAfter.all(project, beforeMs, after[0], after[1], limit)
    ) as { started_at: number; id: string; trace_id: string }[];
    const traceIds: string[] = [];
    const seen = new Set<string>();
    for (const row of rows) {
      if (seen.has(row.trace_id)) continue;
      seen.add(row.trace_id);
      const newest = this.#newestStart.get(project, row.trace_id) as number;
      if (newest < beforeMs) traceIds.push(row.trace_id);
    }
    const last = rows.at(-1);
    return {
      traceIds,
      cursor:
        rows.length < limit || last === undefined ? undefined : encodeScanCursor(last.started_at, last.id),
    };
  }

  async keptTraces(project: string, traceIds: readonly string[]): Promise<string[]> {
    this.#options.open();
    if (traceIds.length === 0) return [];
    return this.#kept.all({ project, traces: JSON.stringify(traceIds), ops: EVALUATION_OPS }) as string[];
  }

  async measureTraces(project: string, traceIds: readonly string[]): Promise<DeletionCounts> {
    this.#options.open();
    return this.#deleter.measure(project, traceIds);
  }

  async deleteTraces(
    project: string,
    traceIds: readonly string[],
    { secure }: { secure: boolean },
  ): Promise<DeletionCounts> {
    this.#options.open();
    if (traceIds.length === 0) return noDeletion();
    // secure_delete overwrites what the deletion frees with zeros, so the
    // deleted text is not left in free pages of the file; it costs writes,
    // so only deletions on request ask for it.
    if (secure) this.#db.pragma('secure_delete = ON');
    try {
      const counts = this.#db.transaction(() => this.#deleter.delete(project, traceIds)).immediate();
      this.#options.committed();
      return counts;
    } finally {
      if (secure) this.#db.pragma('secure_delete = OFF');
    }
  }

  async collectGarbage(
    project: string,
    storedBefore: number,
    cursor: string | undefined,
    limit: number,
  ): Promise<GarbageCollected> {
    this.#options.open();
    const { phase, after } = readGarbageCursor(cursor);
    const rows = (phase === 'v' ? this.#values : this.#files).all(project, after, limit) as {
      digest: string;
      created_at: number;
    }[];
    const candidates: ContentRefKey[] = rows
      .filter((row) => row.created_at < storedBefore)
      .map((row) => `${phase}:${row.digest}` as const);
    const removed = this.#db
      .transaction(() => this.#collector.run(project, candidates, 'collect'))
      .immediate();
    this.#options.committed();
    return { ...removed, cursor: nextGarbageCursor(phase, rows, limit) };
  }
}
