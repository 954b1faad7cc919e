import type { Database, Statement } from 'better-sqlite3';
import type { DeletionCounts } from '@weft/protocol';
import type { ContentRefKey } from '../content-refs.js';
import { deletionCounts } from '../lifecycle/index.js';
import type { ContentCollector } from './content-collector.js';
import { callRefsOf, splitRef } from './lifecycle-schema.js';
import { TERM_SET_KEY, TERM_SET_KIND } from './term-sets.js';

/** The traces of one statement, as `@project` and `@traces` (a JSON array). */
const TRACE_CALLS = 'c.project = @project AND c.trace_id IN (SELECT value FROM json_each(@traces))';

interface DeletedRow {
  row_id: number;
  id: string;
  inputs: Uint8Array | null;
  attributes: Uint8Array | null;
  output: Uint8Array | null;
}

/** What a deletion asks of the rollups: take the calls out before they go (`RollupStorage.forgetCalls`). */
export interface RollupForget {
  forgetCalls(project: string, ids: readonly string[]): number;
}

/**
 * Deletes whole traces from SQLite, with everything derived from their
 * calls, in the caller's transaction:
 *
 *   rollups        the calls' contributions taken out (forgetCalls), first
 *   calls_fts      'delete' with the indexed text (external content: FTS5
 *                  removes a row by the exact text it indexed)
 *   call_attributes by full key, from the calls' terms; then the term sets
 *                  no remaining call names
 *   call_refs      by full key, from the calls' values; what they named
 *                  becomes a candidate for the collector
 *   feedback       of the calls
 *   calls          the rows
 *
 * then the collector removes the values and files only they referred to.
 */
export class TraceDeleter {
  readonly #db: Database;
  readonly #rows: Statement;
  readonly #count: Statement;
  readonly #derived: Statement[];
  readonly #deleteRef: Statement;
  readonly #deleteFeedback: Statement;
  readonly #deleteCalls: Statement;
  readonly #collector: ContentCollector;
  readonly #rollups: RollupForget;

  constructor(db: Database, { collector, rollups }: { collector: ContentCollector; rollups: RollupForget }) {
    this.#db = db;
    this.#collector = collector;
    this.#rollups = rollups;
    this.#rows = db.prepare(
      `SELECT c.rowid AS row_id, c.id, c.inputs, c.attributes, c.output FROM calls c WHERE ${TRACE_CALLS}`,
    );
    this.#count = db.prepare(
      `SELECT COUNT(*) AS calls, COUNT(DISTINCT c.trace_id) AS traces FROM calls c WHERE ${TRACE_CALLS}`,
    );
    this.#derived = [
      db.prepare(`INSERT INTO calls_fts (calls_fts, rowid, display_name, op_plain, search_inputs, search_output)
        SELECT 'delete', c.rowid, c.display_name, c.op_plain, c.search_inputs, c.search_output FROM calls c WHERE ${TRACE_CALLS}`),
      db.prepare(`DELETE FROM call_attributes WHERE project = @project AND (key, kind, value, call_row) IN (
        SELECT t.value ->> 0, t.value ->> 1, t.value ->> 2, c.rowid
        FROM calls c, json_each(c.attribute_terms) t WHERE ${TRACE_CALLS} AND c.attribute_terms IS NOT NULL)`),
      // After the calls' own rows: a term set no other call names goes too, so
      // the resource and model values of deleted calls are not kept (term-sets.ts).
      db.prepare(`DELETE FROM call_term_sets WHERE project = @project AND term_set IN (
        SELECT t.value ->> 2 FROM calls c, json_each(c.attribute_terms) t
        WHERE ${TRACE_CALLS} AND c.attribute_terms IS NOT NULL
          AND t.value ->> 0 = '${TERM_SET_KEY}' AND t.value ->> 1 = '${TERM_SET_KIND}'
          AND NOT EXISTS (SELECT 1 FROM call_attributes a WHERE a.project = @project
            AND a.key = '${TERM_SET_KEY}' AND a.kind = '${TERM_SET_KIND}' AND a.value = t.value ->> 2))`),
    ];
    this.#deleteRef = db.prepare(
      'DELETE FROM call_refs WHERE project = ? AND kind = ? AND target = ? AND call_row = ?',
    );
    this.#deleteFeedback = db.prepare(
      'DELETE FROM feedback WHERE project = ? AND call_id IN (SELECT value FROM json_each(?))',
    );
    this.#deleteCalls = db.prepare(`DELETE FROM calls AS c WHERE ${TRACE_CALLS}`);
  }

  /** Deletes the traces (see the class comment); run it in a transaction. */
  delete(project: string, traceIds: readonly string[]): DeletionCounts {
    const params = { project, traces: JSON.stringify(traceIds) };
    const counts = this.#count.get(params) as { calls: number; traces: number };
    if (counts.calls === 0) return deletionCounts(counts, { values: 0, files: 0 });
    const rows = this.#rows.all(params) as DeletedRow[];
    const ids = rows.map((row) => row.id);
    this.#rollups.forgetCalls(project, ids);
    for (const statement of this.#derived) statement.run(params);
    const candidates = new Set<ContentRefKey>();
    for (const row of rows) {
      for (const key of callRefsOf(row) ?? []) {
        this.#deleteRef.run(project, ...splitRef(key), row.row_id);
        candidates.add(key);
      }
    }
    this.#deleteFeedback.run(project, JSON.stringify(ids));
    this.#deleteCalls.run(params);
    return deletionCounts(counts, this.#collector.run(project, candidates, 'collect'));
  }

  /**
   * What {@link delete} would remove now, in a read of its own: the
   * selection is written to a temporary table (per connection, never the
   * database), so "still referred to" leaves it out.
   */
  measure(project: string, traceIds: readonly string[]): DeletionCounts {
    const select = this.#db.prepare('INSERT OR IGNORE INTO temp.lifecycle_selection (trace_id) VALUES (?)');
    const candidates = new Set<ContentRefKey>();
    let calls = 0;
    let traces = 0;
    const run = this.#db.transaction(() => {
      for (const id of traceIds) select.run(id);
      // In chunks: the JSON list of a statement stays small whatever the selection.
      for (let i = 0; i < traceIds.length; i += MEASURE_CHUNK) {
        const params = { project, traces: JSON.stringify(traceIds.slice(i, i + MEASURE_CHUNK)) };
        const counts = this.#count.get(params) as { calls: number; traces: number };
        calls += counts.calls;
        traces += counts.traces;
        for (const row of this.#rows.iterate(params) as Iterable<DeletedRow>) {
          for (const key of callRefsOf(row) ?? []) candidates.add(key);
        }
      }
      return this.#collector.run(project, candidates, 'measure');
    });
    try {
      const content = run();
      return deletionCounts({ traces, calls }, content);
    } finally {
      this.#db.exec('DELETE FROM temp.lifecycle_selection; DELETE FROM temp.lifecycle_gone;');
    }
  }
}

/** Traces per statement when measuring a large selection. */
const MEASURE_CHUNK = 500;
