/**
 * The tables, each as its columns, engine keys and shard key. Every table is
 * a ReplacingMergeTree: a row written twice (a retry, a second replica, a
 * start and an end of the same call) shares its ORDER BY key with the first,
 * and background merges keep one. Reads never rely on merges having run: they
 * aggregate by that key (`GROUP BY`, `argMaxIf`, `any`) — see each store.
 */
export interface TableSpec {
  name: string;
  columns: string;
  /** Version column of ReplacingMergeTree, if any (the newest row wins a merge). */
  version?: string;
  partitionBy?: string;
  orderBy: string;
  /** MergeTree settings of a table created from now on (`SETTINGS …`), if any. */
  settings?: string;
  /** With a cluster: which shard a row goes to. Rows that merge must share a shard. */
  shardBy: string;
}

/** Month of an epoch-milliseconds Float64 column (18.16 has no DateTime64). */
const monthOf = (column: string) => `toYYYYMM(toDateTime(toUInt32(intDiv(toUInt64(${column}), 1000))))`;

/**
 * `calls` holds HALF-rows: `half` = 1 for a start, 2 for an end; a complete
 * record writes both. The ORDER BY key (project, id, half) is the upsert key
 * of each half, so a merge keeps the newest copy of each half and never mixes
 * them; reads fold the two halves of an id together (`call-columns.ts`).
 * Ids are UUIDv7 (time-ordered) and a child's id starts with its trace id's
 * first 8 bytes, so ordering by id also clusters a project by time and a
 * trace's calls next to each other: the pages the UI reads first (newest
 * calls, one trace) touch few granules. `event_ms` (start or end time)
 * partitions by month, so old months can be dropped whole.
 */
export const TABLES: readonly TableSpec[] = [
  {
    name: 'calls',
    columns: `
      project String, id String, half UInt8, seq UInt64, event_ms Float64,
      trace_id String, parent_id String, op_name String, op_plain String,
      has_display UInt8, display_name String, started_at Float64, inputs String, attributes String,
      ended_at Float64, output String, exception String, summary String, latency_given Float64, status String`,
    version: 'seq',
    partitionBy: monthOf('event_ms'),
    orderBy: '(project, id, half)',
    // A page reads its calls by id, one granule each (ids of a filtered page
    // are far apart): granules of 256 half-rows (~300 KB of values a column)
    // rather than 8,192 (~8 MB, decompressed per id). Databases created
    // before keep 8,192 (a granularity is fixed when a table is created).
    settings: 'index_granularity = 256',
    shardBy: 'cityHash64(project, id)',
  },
  {
    name: 'objects',
    columns: 'project String, name String, digest String, kind String, value String, created_at Float64',
    orderBy: '(project, name, digest)',
    shardBy: 'cityHash64(project, name)',
  },
  {
    name: 'tables',
    columns: 'project String, digest String, row_count UInt64, created_at Float64',
    orderBy: '(project, digest)',
    shardBy: 'cityHash64(project, digest)',
  },
  {
    name: 'table_order',
    columns: 'project String, table_digest String, idx UInt64, row_digest String',
    orderBy: '(project, table_digest, idx)',
    shardBy: 'cityHash64(project, table_digest)',
  },
  {
    name: 'table_rows',
    columns: 'project String, digest String, value String',
    orderBy: '(project, digest)',
    shardBy: 'cityHash64(project, digest)',
  },
  {
    name: 'files',
    columns: 'project String, digest String, size UInt64, bytes_base64 String, created_at Float64',
    orderBy: '(project, digest)',
    shardBy: 'cityHash64(project, digest)',
  },
];

/**
 * Columns of `calls` added by migration 2 (start half: session, attribute
 * terms, search text of names and inputs; end half: search text of the
 * output, total tokens and cost, -1 when absent). Rows written before it read
 * the defaults: no session, no terms, no text, no totals.
 */
export const LOOP_CALL_COLUMNS: readonly string[] = [
  "session_id String DEFAULT ''",
  'attr_terms Array(String)',
  "search_start String DEFAULT ''",
  "search_end String DEFAULT ''",
  'total_tokens Float64 DEFAULT -1',
  'cost_usd Float64 DEFAULT -1',
];

/**
 * Column of `calls` added by migration 3, on the start half: the own usage
 * of a call made from an OTLP span (`span-usage.ts`), '' for calls the SDK
 * recorded. The end half's summary holds the rolled-up totals.
 */
export const SPAN_USAGE_COLUMN = "span_usage String DEFAULT ''";

/**
 * Tables added by migration 2. Feedback is keyed by its call so a page's
 * feedback is one range read; an item's `id` is its identity (a retry is
 * skipped at write, and reads keep one row per id). A label's row is
 * replaced by the newest `seq`: moving a label writes a new row.
 */
export const LOOP_TABLES: readonly TableSpec[] = [
  {
    name: 'feedback',
    columns: `project String, call_id String, id String, name String, kind String, value String,
      comment Nullable(String), source Nullable(String), created_at Float64, seq UInt64`,
    orderBy: '(project, call_id, id)',
    shardBy: 'cityHash64(project, call_id)',
  },
  {
    name: 'object_labels',
    columns: 'project String, name String, label String, digest String, updated_at Float64, seq UInt64',
    version: 'seq',
    orderBy: '(project, name, label)',
    shardBy: 'cityHash64(project, name)',
  },
];

/**
 * Tables added by migration 3: deduplicated call values, once per (project,
 * digest); `prev` is empty unless an array extends another.
 */
export const VALUE_TABLES: readonly TableSpec[] = [
  {
    name: 'call_values',
    columns:
      'project String, digest String, is_array UInt8, prev String, bytes_base64 String, created_at Float64',
    orderBy: '(project, digest)',
    shardBy: 'cityHash64(project, digest)',
  },
];

/**
 * DDL of one table: on a single server the ReplacingMergeTree itself; in a
 * cluster a `<name>_local` ReplacingMergeTree on every shard plus a
 * `Distributed` table `<name>` over them, so queries name `<name>` either way.
 */
export function createTableStatements(
  database: string,
  table: TableSpec,
  cluster: string | undefined,
): string[] {
  const local = cluster === undefined ? table.name : `${table.name}_local`;
  const engine = `ReplacingMergeTree(${table.version ?? ''})`;
  const partition = table.partitionBy ? ` PARTITION BY ${table.partitionBy}` : '';
  const settings = table.settings ? ` SETTINGS ${table.settings}` : '';
  const statements = [
    `CREATE TABLE IF NOT EXISTS ${database}.${local} (${table.columns}) ENGINE = ${engine}${partition} ORDER BY ${table.orderBy}${settings}`,
  ];
  if (cluster !== undefined) {
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${database}.${table.name} AS ${database}.${local} ENGINE = Distributed(${cluster}, ${database}, ${local}, ${table.shardBy})`,
    );
  }
  return statements;
}
