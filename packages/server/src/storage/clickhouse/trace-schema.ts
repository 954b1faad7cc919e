import { END, START } from './call-halves.js';
import type { SchemaProfile } from './schema-profile.js';

/** `2^52`, the rank of a row with both halves (as `call_list.version`, see `callListRow`). */
const ENDED_RANK = '4503599627370496';

/**
 * Every column of a `call_trace` row, in the order of its TabSeparated rows
 * (`callListRow` fills each: one row object feeds both tables).
 */
export const CALL_TRACE_COLUMNS = [
  'project',
  'trace_id',
  'id',
  'version',
  'parent_id',
  'op_name',
  'has_display',
  'display_name',
  'session_id',
  'started_ms',
  'attributes',
  'has_end',
  'ended_ms',
  'status',
  'summary',
  'exception',
] as const;

/**
 * `call_trace`, one row per call whose start arrived, keyed by its trace:
 * exactly what the trace view shows of a call (no inputs or output), so a
 * trace is ONE primary-key range, `(project, trace_id)`, read with no `IN`
 * and no fold of halves (`readTraceColumns`). Written at ingest from the
 * same row as `call_list` (`ClickHouseCallListWriter`), so it follows the
 * same rules:
 *
 * - ReplacingMergeTree(version), `version` as `call_list`'s (`has_end ·
 *   2^52 + seq`): a call written again (its end arriving later, a re-sent
 *   record, two replicas) keeps its highest version; until a merge, the
 *   read keeps the highest itself (`LIMIT 1 BY id`);
 * - ORDER BY (project, trace_id, id): a trace's rows, and the copies of a
 *   call next to each other (a start time is not in the key: a start sent
 *   again with another time would leave a copy a merge never replaces);
 * - times as `calls` keeps them (Float64 milliseconds), so the view shows
 *   the times the call was sent with, to the last digit;
 * - sharded by trace, so a trace is read from one shard.
 *
 * 18.16 gets the same table without LowCardinality.
 */
export function callTraceTable(database: string, table: string, profile: SchemaProfile): string {
  const modern = profile.kind === 'modern';
  const low = (type: string) => (modern ? `LowCardinality(${type})` : type);
  const columns = [
    `project ${low('String')}`,
    'trace_id String',
    'id String',
    'version UInt64',
    'parent_id String',
    'op_name String',
    'has_display UInt8',
    'display_name String',
    'session_id String',
    'started_ms Float64',
    'attributes String',
    'has_end UInt8',
    'ended_ms Float64',
    `status ${low('String')}`,
    'summary String',
    'exception String',
  ];
  const month = 'toYYYYMM(toDateTime(toUInt32(intDiv(toUInt64(started_ms), 1000))))';
  // Granules of 1,024 rows: most traces are a few calls, and each read decompresses a granule of values.
  return `CREATE TABLE IF NOT EXISTS ${database}.${table} (${columns.join(', ')}) ENGINE = ReplacingMergeTree(version) PARTITION BY ${month} ORDER BY (project, trace_id, id) SETTINGS index_granularity = 1024`;
}

/**
 * Migration 10: `call_trace` (on a cluster a local table on each shard and
 * a `Distributed` one over them), then the calls stored before it, folded
 * once from their half-rows (the newest copy of each half, as `call_list`'s
 * migration did). On a modern server the fold reads `calls` in its key
 * order (`optimize_aggregation_in_order`: `GROUP BY project, id` is a prefix
 * of it), so its memory stays bounded whatever the number of calls.
 */
export function callTraceStatements(
  database: string,
  cluster: string | undefined,
  profile: SchemaProfile,
): string[] {
  const local = cluster === undefined ? 'call_trace' : 'call_trace_local';
  const calls = cluster === undefined ? 'calls' : 'calls_local';
  const statements = [callTraceTable(database, local, profile)];
  if (cluster !== undefined) {
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${database}.call_trace AS ${database}.${local} ENGINE = Distributed(${cluster}, ${database}, ${local}, cityHash64(project, trace_id))`,
    );
  }
  const start = (column: string) => `argMaxIf(${column}, seq, half = ${START})`;
  const end = (column: string) => `argMaxIf(${column}, seq, half = ${END})`;
  const inOrder = profile.kind === 'modern' ? ' SETTINGS optimize_aggregation_in_order = 1' : '';
  statements.push(`
    INSERT INTO ${database}.${local} (${CALL_TRACE_COLUMNS.join(', ')})
    SELECT project, ${start('trace_id')}, id, if(max(half = ${END}) = 1, ${ENDED_RANK}, 0) + max(seq),
      ${start('parent_id')}, ${start('op_name')}, ${start('has_display')}, ${start('display_name')},
      ${start('session_id')}, ${start('started_at')}, ${start('attributes')}, max(half = ${END}),
      ${end('ended_at')}, if(max(half = ${END}) = 1, ${end('status')}, 'running'), ${end('summary')}, ${end('exception')}
    FROM ${database}.${calls} GROUP BY project, id HAVING max(half = ${START}) = 1${inOrder}`);
  return statements;
}
