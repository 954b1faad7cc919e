import type { Database } from 'better-sqlite3';
import { bigintValuesToSafeForm } from './bigint-values.js';

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
  const current = (db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM weft_migrations').get() as { v: number }).v;
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
