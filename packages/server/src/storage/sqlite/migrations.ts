import type { Database } from 'better-sqlite3';
import { bigintValuesToSafeForm } from './bigint-values.js';
import { backfillContentRefs, LIFECYCLE_SCHEMA } from './lifecycle-schema.js';
import { CALL_TERM_SETS_BY_SET, CALL_TERM_SETS_SCHEMA } from './term-sets.js';
import {
  MONITOR_STATE_SCHEMA,
  ROLLUP_SCHEMA,
  rollupBinsToBlobs,
  rollupBinsToVarints,
} from './rollup-schema.js';

/**
 * One schema step: SQL, or a data rewrite (`run`) where SQL cannot do it.
 * Numbers only grow; an applied migration is never edited.
 */
interface Migration {
  version: number;
  name: string;
  sql?: string;
  run?: (db: Database) => void;
}

/**
 * The schema, as numbered steps. `latency_key` is -1 while a call runs so
 * latency sorts and keyset cursors never meet a NULL. Every index costs ingest
 * time, so there is one per sort order and per tree walk (trace, parent), and
 * status has only a partial index of failed calls (rare, and the status
 * people filter by); other status filters ride the sort index they page by.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'calls, objects, tables, files',
    sql: `
      CREATE TABLE calls (
        project TEXT NOT NULL,
        id TEXT NOT NULL,
        has_start INTEGER NOT NULL DEFAULT 0,
        has_end INTEGER NOT NULL DEFAULT 0,
        trace_id TEXT,
        parent_id TEXT,
        op_name TEXT,
        op_plain TEXT,
        display_name TEXT,
        started_at REAL,
        inputs BLOB,
        attributes BLOB,
        ended_at REAL,
        output BLOB,
        exception BLOB,
        summary BLOB,
        latency_given REAL,
        status TEXT NOT NULL DEFAULT 'running',
        latency_key REAL GENERATED ALWAYS AS (COALESCE(latency_given, ended_at - started_at, -1)) VIRTUAL,
        PRIMARY KEY (project, id)
      );
      CREATE INDEX calls_started ON calls (project, started_at, id);
      CREATE INDEX calls_trace ON calls (project, trace_id, started_at, id);
      CREATE INDEX calls_parent ON calls (project, parent_id, started_at, id);
      CREATE INDEX calls_op ON calls (project, op_plain, id);
      CREATE INDEX calls_latency ON calls (project, latency_key, id);
      CREATE INDEX calls_errors ON calls (project, started_at, id) WHERE status = 'error';

      CREATE TABLE objects (
        project TEXT NOT NULL,
        name TEXT NOT NULL,
        version INTEGER NOT NULL,
        digest TEXT NOT NULL,
        kind TEXT NOT NULL,
        value TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (project, name, version),
        UNIQUE (project, name, digest)
      );

      CREATE TABLE table_rows (
        project TEXT NOT NULL,
        digest TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (project, digest)
      );
      CREATE TABLE tables (
        project TEXT NOT NULL,
        digest TEXT NOT NULL,
        row_count INTEGER NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (project, digest)
      );
      CREATE TABLE table_order (
        project TEXT NOT NULL,
        table_digest TEXT NOT NULL,
        idx INTEGER NOT NULL,
        row_digest TEXT NOT NULL,
        PRIMARY KEY (project, table_digest, idx)
      ) WITHOUT ROWID;

      CREATE TABLE files (
        project TEXT NOT NULL,
        digest TEXT NOT NULL,
        size INTEGER NOT NULL,
        bytes BLOB NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (project, digest)
      );
    `,
  },
  {
    // Before the bodyShape check (commit 79f304d), a msgpack 64-bit integer in
    // a call's values was stored as is; reading it back gave a bigint that the
    // JSON answer cannot hold, so every read of its project was a 500.
    version: 2,
    name: 'bigint values stored before the body-shape check get their safe form',
    run: bigintValuesToSafeForm,
  },
  {
    version: 3,
    name: 'sessions, attribute index, full-text search, feedback, labels',
    // Search text, attribute terms and token totals are derived from the
    // msgpack blobs by the ingest code (see `upsertRow`); triggers keep the
    // index tables in step, so both call writers (inline and worker thread)
    // maintain them with the one UPSERT statement. Calls stored before this
    // migration are searchable by display and op name only, and have no
    // attribute terms.
    sql: `
      ALTER TABLE calls ADD COLUMN session_id TEXT;
      ALTER TABLE calls ADD COLUMN search_inputs TEXT;
      ALTER TABLE calls ADD COLUMN search_output TEXT;
      ALTER TABLE calls ADD COLUMN attribute_terms TEXT;
      ALTER TABLE calls ADD COLUMN total_tokens REAL;
      ALTER TABLE calls ADD COLUMN cost_usd REAL;
      CREATE INDEX calls_session ON calls (project, session_id, started_at, id) WHERE session_id IS NOT NULL;

      -- One row per scalar attribute (and per scalar element of an array
      -- attribute). kind: 's' string, 'n' number, 'b' boolean (value 0/1).
      -- value has no declared type, so SQLite keeps each value as given.
      CREATE TABLE call_attributes (
        project TEXT NOT NULL,
        call_id TEXT NOT NULL,
        key TEXT NOT NULL,
        kind TEXT NOT NULL,
        value
      );
      CREATE INDEX call_attributes_match ON call_attributes (project, key, kind, value, call_id);
      CREATE INDEX call_attributes_call ON call_attributes (project, call_id);
      CREATE TRIGGER calls_attributes_insert AFTER INSERT ON calls WHEN new.attribute_terms IS NOT NULL BEGIN
        INSERT INTO call_attributes (project, call_id, key, kind, value)
          SELECT new.project, new.id, t.value ->> 0, t.value ->> 1, t.value ->> 2 FROM json_each(new.attribute_terms) t;
      END;
      CREATE TRIGGER calls_attributes_update AFTER UPDATE OF attribute_terms ON calls
        WHEN new.attribute_terms IS NOT old.attribute_terms BEGIN
        DELETE FROM call_attributes WHERE project = old.project AND call_id = old.id;
        INSERT INTO call_attributes (project, call_id, key, kind, value)
          SELECT new.project, new.id, t.value ->> 0, t.value ->> 1, t.value ->> 2 FROM json_each(new.attribute_terms) t;
      END;

      -- External-content FTS5 over the calls table: the text lives once, in
      -- calls. Keyed by the calls rowid, which only VACUUM could renumber
      -- (Weft never runs it; after a manual VACUUM run
      -- INSERT INTO calls_fts(calls_fts) VALUES ('rebuild')).
      CREATE VIRTUAL TABLE calls_fts USING fts5(
        display_name, op_plain, search_inputs, search_output,
        content = 'calls', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
      );
      INSERT INTO calls_fts (calls_fts) VALUES ('rebuild');
      CREATE TRIGGER calls_fts_insert AFTER INSERT ON calls BEGIN
        INSERT INTO calls_fts (rowid, display_name, op_plain, search_inputs, search_output)
          VALUES (new.rowid, new.display_name, new.op_plain, new.search_inputs, new.search_output);
      END;
      CREATE TRIGGER calls_fts_update AFTER UPDATE OF display_name, op_plain, search_inputs, search_output ON calls
        WHEN new.display_name IS NOT old.display_name OR new.op_plain IS NOT old.op_plain
          OR new.search_inputs IS NOT old.search_inputs OR new.search_output IS NOT old.search_output BEGIN
        INSERT INTO calls_fts (calls_fts, rowid, display_name, op_plain, search_inputs, search_output)
          VALUES ('delete', old.rowid, old.display_name, old.op_plain, old.search_inputs, old.search_output);
        INSERT INTO calls_fts (rowid, display_name, op_plain, search_inputs, search_output)
          VALUES (new.rowid, new.display_name, new.op_plain, new.search_inputs, new.search_output);
      END;

      -- Feedback is keyed by its own id, not by a foreign key to calls: it
      -- may arrive before its call, and is attached when the call is read.
      CREATE TABLE feedback (
        project TEXT NOT NULL,
        id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        value,
        comment TEXT,
        source TEXT,
        created_at REAL NOT NULL,
        PRIMARY KEY (project, id)
      );
      CREATE INDEX feedback_call ON feedback (project, call_id, created_at);
      CREATE INDEX feedback_match ON feedback (project, name, kind, value, call_id);

      CREATE TABLE object_labels (
        project TEXT NOT NULL,
        name TEXT NOT NULL,
        label TEXT NOT NULL,
        version INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (project, name, label)
      );
    `,
  },
  {
    version: 4,
    name: 'own usage of calls made from OTLP spans, apart from their rolled-up summary',
    // JSON `{ scope, usage? }` (see `span-usage.ts`); NULL for calls the SDK
    // recorded. A span call's `summary` holds its totals, recomputed from
    // these after every OTLP ingest (`SqliteSpanUsageStore`).
    sql: 'ALTER TABLE calls ADD COLUMN span_usage TEXT;',
  },
  {
    version: 5,
    name: 'deduplicated call values',
    // One row per (project, digest): a value many calls refer to is stored
    // once. `prev` is set only for an array that extends another (`is_array`).
    sql: `
      CREATE TABLE call_values (
        project TEXT NOT NULL,
        digest TEXT NOT NULL,
        is_array INTEGER NOT NULL,
        prev TEXT,
        bytes BLOB NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (project, digest)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 6,
    name: 'search and attribute indexes kept per batch, not by triggers',
    // The four triggers of migration 3 ran as a sub-program of every upsert
    // (about half of native ingest time); the ingest transaction now updates
    // both indexes once per batch, for the calls it touched (call-index.ts).
    // The indexes are already in step with `calls`: nothing to rebuild.
    sql: `
      DROP TRIGGER IF EXISTS calls_attributes_insert;
      DROP TRIGGER IF EXISTS calls_attributes_update;
      DROP TRIGGER IF EXISTS calls_fts_insert;
      DROP TRIGGER IF EXISTS calls_fts_update;
    `,
  },
  {
    version: 7,
    name: 'attribute index: one B-tree keyed by the match and the call rowid',
    // Each attribute term cost three B-tree inserts (the rowid table, the
    // match index, the per-call index), each at a random place within its
    // term when call ids are random (OTLP's are trace-id hashes), and a GenAI
    // span has 8 terms: the biggest single cost of OTLP ingest. Keyed
    // WITHOUT ROWID by the match and the call's rowid (which only grows, as
    // calls_fts relies on too), a new call's term is one insert at the end
    // of its term's run. The per-call index is no longer needed: a changed
    // call's old terms are deleted by their full key, read from its previous
    // `attribute_terms` (call-index.ts). A term repeated within one call
    // (`tags: ['a', 'a']`) is kept once; filters match the same calls.
    sql: `
      CREATE TABLE call_attributes_keyed (
        project TEXT NOT NULL,
        key TEXT NOT NULL,
        kind TEXT NOT NULL,
        value NOT NULL,
        call_row INTEGER NOT NULL,
        PRIMARY KEY (project, key, kind, value, call_row)
      ) WITHOUT ROWID;
      INSERT OR IGNORE INTO call_attributes_keyed (project, key, kind, value, call_row)
        SELECT a.project, a.key, a.kind, a.value, c.rowid
        FROM call_attributes a JOIN calls c ON c.project = a.project AND c.id = a.call_id
        WHERE a.value IS NOT NULL;
      DROP TABLE call_attributes;
      ALTER TABLE call_attributes_keyed RENAME TO call_attributes;
    `,
  },
  {
    version: 8,
    name: 'op-name sort index keyed by start time within each op',
    // The op-name sort orders one op's calls by start time, then id (it was
    // by id). Keyed (op, id), a call with a random id (an OTLP span's: half
    // its trace id, half its span id) went to a random place in its op's run,
    // dirtying one more index page per call in every batch; by start time it
    // goes to the end of its op's run, as the SDK's time-ordered ids did.
    sql: `
      DROP INDEX calls_op;
      CREATE INDEX calls_op ON calls (project, op_plain, started_at, id);
    `,
  },
  {
    version: 9,
    name: 'metrics rollups, call completions, monitoring documents and logs',
    sql: ROLLUP_SCHEMA + MONITOR_STATE_SCHEMA,
  },
  {
    version: 10,
    name: 'what calls, values, objects and tables refer to, for retention and deletion',
    // Filled from what is stored (only rows whose bytes hold `weft` are
    // decoded); kept up to date by every write from here on.
    sql: LIFECYCLE_SCHEMA,
    run: backfillContentRefs,
  },
  {
    version: 11,
    name: 'rollup histograms stored as binary counts',
    // JSON bin lists were parsed per row on every read: most of a 30-day
    // dashboard's time. See histogram-blob.ts.
    run: rollupBinsToBlobs,
  },
  {
    version: 12,
    name: 'rollup histograms stored as varints',
    // A float64 per bin pushed busy hour rows onto overflow pages, read whole
    // by every range read that stepped over them. See histogram-blob.ts.
    run: rollupBinsToVarints,
  },
  {
    version: 13,
    name: 'call completions found by call',
    // Deleting a call (retention, deletion on request) removes its completion
    // by (project, id); with only the (project, seq) index that walked every
    // completion of the project, per deleted call.
    sql: 'CREATE INDEX call_completions_call ON call_completions (project, id);',
  },
  {
    version: 14,
    name: 'rollup rows found by level and bucket',
    // Retention drops the buckets that ended before its cutoff; keyed by
    // (project, cut, op, level, t, …) alone, each pass walked every rollup
    // row of the project to find them.
    sql: `
      CREATE INDEX call_rollups_time ON call_rollups (project, level, t);
      CREATE INDEX feedback_rollups_time ON feedback_rollups (project, level, t);
    `,
  },
  {
    version: 15,
    name: 'attribute terms shared by many calls indexed once per project',
    // A GenAI span's resource, scope, kind, operation and model were 5
    // `call_attributes` rows per span, the same for every span of a process
    // (term-sets.ts). Rows written before keep their own terms, which
    // filters still read.
    sql: CALL_TERM_SETS_SCHEMA,
  },
  {
    version: 16,
    name: 'term sets found by id',
    // Deleting calls deletes the term sets no remaining call names, by id.
    sql: CALL_TERM_SETS_BY_SET,
  },
];

/**
 * Applies every migration newer than the database, each in its own
 * transaction, recording it in `weft_migrations`. Returns the schema version.
 */
export function migrate(db: Database): number {
  db.exec(`CREATE TABLE IF NOT EXISTS weft_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at REAL NOT NULL
  )`);
  const current = (
    db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM weft_migrations').get() as { v: number }
  ).v;
  const record = db.prepare('INSERT INTO weft_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      if (migration.sql !== undefined) db.exec(migration.sql);
      migration.run?.(db);
      record.run(migration.version, migration.name, Date.now());
    })();
  }
  return Math.max(current, ...migrations.map((m) => m.version));
}
