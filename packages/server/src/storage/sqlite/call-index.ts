import { WeftError } from '@weft/protocol';
import { callRefsOf, splitRef } from './lifecycle-schema.js';
import { INSERT_TERM_SETS, termSetsJson } from './term-sets.js';

/** Positions of the value blobs in an upsert row (`upsertRow`): read before a writer thread takes them. */
const INPUTS = 10;
const ATTRIBUTES = 11;
const OUTPUT = 13;

/*
 * The full-text index (`calls_fts`) and the attribute index (`call_attributes`)
 * are brought up to date once per ingest batch, inside its transaction, by
 * the statements below — not by triggers on `calls` (dropped in migration 6).
 *
 *   BEFORE: copy the indexed fields of the batch's calls that already exist
 *           into temp.call_index_before (new calls: nothing to copy)
 *   the batch's upserts, one per record
 *   AFTER:  compare each call of the batch with its copy; index only what is
 *           new or changed; empty the copy
 *
 * Why: a trigger runs as a sub-program of every upsert, and a statement that
 * fires one needs a statement journal, which with SQLite's default
 * `temp_store` is a temporary file. Measured on this 2-core machine, 20,000
 * 1 KB records in batches of 500, SQL only, CPU per row: 120–130 µs with the
 * four triggers, 70–81 µs with them and `temp_store = MEMORY`, 51–56 µs with
 * these batch statements, 32–37 µs with no index upkeep at all.
 *
 * The calls of one batch commit together, so a query that follows the
 * batch's answer finds them by their text and attributes. FTS5 re-indexes a
 * row whole: when a call's end arrives after its start, its row is removed
 * with the old text and added with the new (inputs and output), as before;
 * a record that changes no indexed field (a re-sent duplicate) writes
 * nothing to either index.
 */

/** Run once per connection: the copy of a batch's calls as they were before it (temp tables are per connection). */
export const CALL_INDEX_SETUP = `CREATE TEMP TABLE IF NOT EXISTS call_index_before (
  row_id INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  display_name TEXT,
  op_plain TEXT,
  search_inputs TEXT,
  search_output TEXT,
  attribute_terms TEXT
)`;

/** The batch's calls, as `@project` and `@ids` (a JSON array) for {@link CALL_INDEX_BEFORE} and {@link CALL_INDEX_AFTER}. */
const BATCH_CALLS = 'c.project = @project AND c.id IN (SELECT value FROM json_each(@ids))';

/** The full-text fields of call `c` equal its copy `o`. */
const SAME_TEXT =
  'c.display_name IS o.display_name AND c.op_plain IS o.op_plain AND c.search_inputs IS o.search_inputs AND c.search_output IS o.search_output';

/** Statements run before a batch's upserts. */
export const CALL_INDEX_BEFORE: readonly string[] = [
  `INSERT INTO temp.call_index_before
    SELECT c.rowid, c.id, c.display_name, c.op_plain, c.search_inputs, c.search_output, c.attribute_terms
    FROM calls c WHERE ${BATCH_CALLS}`,
];

/** Statements run after a batch's upserts, in this order. */
export const CALL_INDEX_AFTER: readonly string[] = [
  // External content: FTS5 removes a row by the exact text it indexed.
  `INSERT INTO calls_fts (calls_fts, rowid, display_name, op_plain, search_inputs, search_output)
    SELECT 'delete', o.row_id, o.display_name, o.op_plain, o.search_inputs, o.search_output
    FROM temp.call_index_before o JOIN calls c ON c.rowid = o.row_id
    WHERE NOT (${SAME_TEXT})`,
  // In rowid order: FTS5 flushes the terms it holds in memory whenever a
  // rowid comes lower than the one before, and this SELECT walks the batch in
  // call-id order, which for random ids (OTLP's) flushed nearly every row
  // (10 µs per call against 5 sorted, measured on 1 KB GenAI spans).
  `INSERT INTO calls_fts (rowid, display_name, op_plain, search_inputs, search_output)
    SELECT c.rowid, c.display_name, c.op_plain, c.search_inputs, c.search_output
    FROM calls c WHERE ${BATCH_CALLS}
      AND NOT EXISTS (SELECT 1 FROM temp.call_index_before o WHERE o.row_id = c.rowid AND ${SAME_TEXT})
    ORDER BY c.rowid`,
  // Old terms by their full key (the table's primary key, migration 7), read
  // from the call's previous terms: no per-call index to keep up.
  `DELETE FROM call_attributes WHERE project = @project AND (key, kind, value, call_row) IN (
    SELECT t.value ->> 0, t.value ->> 1, t.value ->> 2, o.row_id
    FROM temp.call_index_before o JOIN calls c ON c.rowid = o.row_id, json_each(o.attribute_terms) t
    WHERE o.attribute_terms IS NOT NULL AND c.attribute_terms IS NOT o.attribute_terms)`,
  // OR IGNORE: a term repeated within one call's attributes is one row.
  `INSERT OR IGNORE INTO call_attributes (project, call_row, key, kind, value)
    SELECT c.project, c.rowid, t.value ->> 0, t.value ->> 1, t.value ->> 2
    FROM calls c, json_each(c.attribute_terms) t
    WHERE ${BATCH_CALLS} AND c.attribute_terms IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM temp.call_index_before o WHERE o.row_id = c.rowid AND o.attribute_terms IS c.attribute_terms)`,
  // The term sets the batch's calls name (term-sets.ts), each stored once per project.
  INSERT_TERM_SETS,
  // What the batch's calls refer to (values, files: lifecycle-schema.ts), so
  // deletion knows what only they kept; OR IGNORE: a re-sent call's rows exist.
  // CROSS JOIN keeps the refs the outer loop: with a plain JOIN, SQLite's
  // planner walked every call of the project (by its latency index) and
  // looked each up in the refs, per batch, so ingest slowed as the project grew.
  `INSERT OR IGNORE INTO call_refs (project, kind, target, call_row)
    SELECT @project, r.value ->> 1, r.value ->> 2, c.rowid
    FROM json_each(@refs) r CROSS JOIN calls c ON c.project = @project AND c.id = r.value ->> 0`,
  'DELETE FROM temp.call_index_before',
];

/** The named parameters of the index statements for one batch. */
export interface CallIndexKeys {
  project: string;
  /** The batch's call ids as a JSON array (a call sent twice may appear twice). */
  ids: string;
  /** What the batch's calls refer to, as a JSON array of `[call id, kind, target]`. */
  refs: string;
  /** The distinct term sets of the batch's calls (term-sets.ts), as JSON. */
  termSets: string;
}

/**
 * The {@link CallIndexKeys} of a batch of upsert rows (`UpsertRow`: project
 * first, call id second), all of one project (as `ingestCalls` writes them).
 */
export function callIndexKeys(rows: readonly (readonly unknown[])[]): CallIndexKeys {
  const project = rows[0]?.[0];
  const ids: unknown[] = [];
  const refs: [unknown, string, string][] = [];
  for (const row of rows) {
    // Every batch comes from one `ingestCalls(project, …)`; a mixed one would leave calls unindexed.
    if (row[0] !== project) {
      throw new WeftError({
        code: 'WEFT_STORAGE_FAILED',
        message: `One batch of call rows holds calls of two projects (${String(project)}, ${String(row[0])}).`,
      });
    }
    ids.push(row[1]);
    const keys = callRefsOf({
      inputs: row[INPUTS] as Uint8Array | null,
      attributes: row[ATTRIBUTES] as Uint8Array | null,
      output: row[OUTPUT] as Uint8Array | null,
    });
    for (const key of keys ?? []) refs.push([row[1], ...splitRef(key)]);
  }
  return {
    project: typeof project === 'string' ? project : '',
    ids: JSON.stringify(ids),
    refs: JSON.stringify(refs),
    termSets: termSetsJson(rows),
  };
}
