import { setTimeout as delay } from 'node:timers/promises';
import {
  type TableSpec,
  TABLES,
  LOOP_TABLES,
  LOOP_CALL_COLUMNS,
  SPAN_USAGE_COLUMN,
  VALUE_TABLES,
  createTableStatements,
} from './schema.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { lifecycleStatements } from './lifecycle-schema.js';
import { callListMigration } from './list-migration.js';
import { callLatencyStatements } from './latency-schema.js';
import {
  type ClickHouseServer,
  type SchemaProfile,
  profileForVersion,
  storedProfile,
} from './schema-profile.js';
import { rollupProjectionStatements } from './rollup-projection.js';
import { rollupStatements } from './rollup-schema.js';
import { callTraceStatements } from './trace-schema.js';
import { sqlLiteral } from './sql-literal.js';

/**
 * One schema step. Numbers only grow; an applied migration is never edited.
 * Every statement must be idempotent (`IF NOT EXISTS`, …): two replicas
 * starting at the same moment both run the steps neither has recorded yet,
 * and running one twice must change nothing.
 */
interface Migration {
  version: number;
  name: string;
  statements(database: string, cluster: string | undefined, profile: SchemaProfile): string[];
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'calls, objects, tables, files',
    statements: (database, cluster) =>
      TABLES.flatMap((table: TableSpec) => createTableStatements(database, table, cluster)),
  },
  {
    version: 2,
    name: 'sessions, attribute terms, search text, feedback, object labels',
    statements: (database, cluster) => [
      // The local table first, then (in a cluster) the Distributed one over it.
      // 18.16 has no ADD COLUMN IF NOT EXISTS: a column added already fails
      // with "already exists", which `migrate` treats as done.
      ...(cluster === undefined ? ['calls'] : ['calls_local', 'calls']).flatMap((table) =>
        LOOP_CALL_COLUMNS.map((column) => `ALTER TABLE ${database}.${table} ADD COLUMN ${column}`),
      ),
      ...LOOP_TABLES.flatMap((table: TableSpec) => createTableStatements(database, table, cluster)),
    ],
  },
  {
    version: 3,
    name: 'own usage of calls made from OTLP spans',
    statements: (database, cluster) =>
      (cluster === undefined ? ['calls'] : ['calls_local', 'calls']).map(
        (table) => `ALTER TABLE ${database}.${table} ADD COLUMN ${SPAN_USAGE_COLUMN}`,
      ),
  },
  {
    version: 4,
    name: 'deduplicated call values',
    statements: (database, cluster) =>
      VALUE_TABLES.flatMap((table: TableSpec) => createTableStatements(database, table, cluster)),
  },
  {
    version: 5,
    name: 'metrics rollups, call completions, monitoring documents and logs',
    statements: rollupStatements,
  },
  {
    version: 6,
    name: 'call_list: one row per call for lists, filters and sorts, apart from the halves',
    statements: callListMigration,
  },
  {
    version: 7,
    name: 'what calls, values, objects and tables refer to, for retention and deletion',
    statements: lifecycleStatements,
  },
  {
    version: 8,
    name: 'call_latency: ended calls in latency order, filled by a materialized view (modern servers)',
    statements: callLatencyStatements,
  },
  {
    version: 9,
    name: 'call_rollups: a projection with the histogram before the bucket time (24.8+)',
    statements: rollupProjectionStatements,
  },
  {
    version: 10,
    name: 'call_trace: one row per call keyed by trace, what the trace view shows',
    statements: callTraceStatements,
  },
];

/** ClickHouse's answer when a concurrent `CREATE … IF NOT EXISTS` won the race (18.16 may still raise it). */
const ALREADY_EXISTS =
  /already exists|TABLE_ALREADY_EXISTS|DATABASE_ALREADY_EXISTS|is (being|currently) (created|attached)/i;

/**
 * ClickHouse's answer when another replica's schema change on the same table
 * ran at the same moment: 18.16 fails an `ADD COLUMN … DEFAULT` racing
 * another one with "Different expressions with the same alias <column>_tmp"
 * (seen when two replicas started together under load). Running the
 * statement again settles it: the column then exists, or is added.
 */
const CONCURRENT_SCHEMA_CHANGE = /Different expressions with the same alias \w+_tmp/;
/** Times a statement is run again after {@link CONCURRENT_SCHEMA_CHANGE}, spaced by {@link RERUN_DELAY_MS} × attempt. */
const MAX_RERUNS = 5;
const RERUN_DELAY_MS = 100;

/**
 * Creates the database and applies every migration newer than the version
 * recorded on EVERY host (each shard keeps its own local tables and its own
 * `weft_migrations`). Safe to run from several replicas at once: statements
 * are idempotent and the version table is a ReplacingMergeTree keyed by
 * version. Returns the schema version.
 */
export async function migrate(
  connection: ClickHouseConnection,
  database: string,
  cluster: string | undefined,
  server: ClickHouseServer,
): Promise<number> {
  const run = async (sql: string) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await connection.commandOnEveryHost(sql);
        return;
      } catch (error) {
        const message = (error as Error).message;
        if (ALREADY_EXISTS.test(message)) return;
        if (!CONCURRENT_SCHEMA_CHANGE.test(message) || attempt > MAX_RERUNS) throw error;
        await delay(RERUN_DELAY_MS * attempt);
      }
    }
  };
  await run(`CREATE DATABASE IF NOT EXISTS ${database}`);
  await run(
    `CREATE TABLE IF NOT EXISTS ${database}.weft_migrations (version UInt32, name String, applied_at Float64) ENGINE = ReplacingMergeTree ORDER BY version`,
  );
  const perHost = await connection.rowsOnEveryHost<{ v: number }>(
    `SELECT toUInt32(max(version)) AS v FROM ${database}.weft_migrations`,
  );
  const current = Math.min(...perHost.map((rows) => Number(rows[0]?.v ?? 0)));
  const profile = {
    ...(await schemaProfile(connection, database, run, server.version)),
    projectionsOnAggregates: server.projectionsOnAggregates,
  };
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    for (const sql of migration.statements(database, cluster, profile)) await run(sql);
    await run(
      `INSERT INTO ${database}.weft_migrations (version, name, applied_at) VALUES (${sqlLiteral(migration.version)}, ${sqlLiteral(migration.name)}, ${sqlLiteral(Date.now())})`,
    );
  }
  return Math.max(current, ...migrations.map((m) => m.version));
}

/**
 * The profile the schema is (or will be) written with: the stored one once
 * `call_list` exists, else that of the server (of `version`), whose full-text index type is
 * probed by creating it (ClickHouse 25+ has `text`; before, `tokenbf_v1`).
 */
async function schemaProfile(
  connection: ClickHouseConnection,
  database: string,
  run: (sql: string) => Promise<void>,
  version: string,
): Promise<SchemaProfile> {
  const stored = await storedProfile(connection, database, 'call_list');
  if (stored !== undefined) return stored;
  if (profileForVersion(version, 'text').kind === 'legacy') return profileForVersion(version, 'text');
  const probe = `${database}.weft_probe_text_index`;
  try {
    await run(
      `CREATE TABLE IF NOT EXISTS ${probe} (s String, INDEX i s TYPE text(tokenizer = 'splitByNonAlpha')) ENGINE = MergeTree ORDER BY tuple()`,
    );
    await run(`DROP TABLE IF EXISTS ${probe}`);
    return profileForVersion(version, 'text');
  } catch {
    return profileForVersion(version, 'tokenbf_v1');
  }
}
