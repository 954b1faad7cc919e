import { listTimeSql } from './list-schema.js';
import type { SchemaProfile } from './schema-profile.js';

/**
 * Columns `call_latency` copies from `call_list`: every filter of a list
 * but text (`search`, `display_name`; a latency sort with text walks
 * `call_list`), and the walk's keys.
 */
const LATENCY_COLUMNS =
  'project, started_at, id, version, trace_id, parent_id, op_name, op_plain, session_id, status, latency_key, attr_terms';

/**
 * Migration 8 (modern servers; 18.16 keeps sorting `call_list`): `call_latency`,
 * the ENDED calls' list rows keyed (project, latency_key, id), so a latency
 * sort reads in the table's own order and stops at LIMIT — the `by_latency`
 * projection of `call_list` was never chosen for it (ClickHouse picks a
 * projection by the marks its key conditions select, and a sort without a
 * latency bound selects them all; measured at 10 M calls: the walk read
 * every row, 408 ms p95). ClickHouse fills it itself: a materialized view
 * copies each ended row inserted into `call_list` (nothing in ingest
 * changes), and the calls stored before are copied once here. Running calls
 * (latency_key -1) stay in `call_list` only: a call's key changes when it
 * ends, and a copy keyed by the old latency would never merge away; the
 * walk merges both (see `ClickHouseCallQuery`). A row whose call was
 * written again since (an end re-sent with another latency) is a stale
 * copy, dropped by the walk's version check like in `call_list`. Then the
 * projection goes (it only cost ingest).
 */
export function callLatencyStatements(
  database: string,
  cluster: string | undefined,
  profile: SchemaProfile,
): string[] {
  if (profile.kind !== 'modern') return [];
  const local = cluster === undefined ? 'call_latency' : 'call_latency_local';
  const list = cluster === undefined ? 'call_list' : 'call_list_local';
  const time = listTimeSql(profile);
  const columns = [
    'project LowCardinality(String)',
    `started_at ${time.type}`,
    'id String',
    'version UInt64',
    'trace_id String',
    'parent_id String',
    'op_name String',
    'op_plain LowCardinality(String)',
    'session_id String',
    'status LowCardinality(String)',
    'latency_key Float64',
    'attr_terms Array(String)',
    'INDEX ix_trace trace_id TYPE bloom_filter(0.001) GRANULARITY 1',
    'INDEX ix_parent parent_id TYPE bloom_filter(0.01) GRANULARITY 1',
    'INDEX ix_session session_id TYPE bloom_filter(0.01) GRANULARITY 1',
    'INDEX ix_terms attr_terms TYPE bloom_filter(0.01) GRANULARITY 1',
    'INDEX ix_op op_plain TYPE set(1000) GRANULARITY 1',
    'INDEX ix_time started_at TYPE minmax GRANULARITY 1',
  ];
  const statements = [
    `CREATE TABLE IF NOT EXISTS ${database}.${local} (${columns.join(', ')}) ENGINE = ReplacingMergeTree(version) PARTITION BY ${time.month('started_at')} ORDER BY (project, latency_key, id)`,
  ];
  if (cluster !== undefined) {
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${database}.call_latency AS ${database}.${local} ENGINE = Distributed(${cluster}, ${database}, ${local}, cityHash64(project, id))`,
    );
  }
  const ended = `SELECT ${LATENCY_COLUMNS} FROM ${database}.${list} WHERE has_end = 1`;
  statements.push(
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.call_latency_fill TO ${database}.${local} AS ${ended}`,
    // The rows stored before the view; a row the view copied meanwhile is
    // copied twice, with the same key and version, and merges away.
    `INSERT INTO ${database}.${local} (${LATENCY_COLUMNS}) ${ended}`,
    `ALTER TABLE ${database}.${list} DROP PROJECTION IF EXISTS by_latency`,
  );
  return statements;
}
