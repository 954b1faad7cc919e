import type { CallRollupValues } from '../rollup/index.js';

/**
 * Metrics rollups and monitoring state in ClickHouse (migration 5), with
 * the semantics of SQLite's (see `MonitorStorage`):
 *
 *   batch ─► rollup_facts (ReplacingMergeTree by seq: a call's facts, newest wins)
 *         ─► call_rollup_changes (Null) ──MV──► call_rollups (AggregatingMergeTree)
 *
 * A change row carries what a batch adds to (or, negative, takes out of) one
 * rollup key; the materialized view folds each insert into aggregate states
 * (`sumState` of whole numbers), which merges keep adding up: nothing is
 * averaged or interpolated on merge, and a call taken out (its end arrived,
 * its usage was recomputed, it was deleted) is subtracted exactly. Reads
 * finish the states with `sumMerge`, so they never depend on merges having
 * run. Histogram bins are rows of their own (`hist` 'l' latency, 't' TTFT,
 * with the bin, counted in `n`; '' is the row of sums), as are the counts
 * per value of feedback (`dvalue`): a `sumMap` state would be more compact,
 * but 18.16 refuses `AggregateFunction(sumMap, …)` in a column definition
 * and string keys in `sumMap` altogether.
 * `call_completions` lists calls as they became complete (by `seq`).
 * Documents are a ReplacingMergeTree by version (a deletion is a tombstone
 * row); logs a MergeTree by time.
 */
export interface RollupTableSpec {
  name: string;
  columns: string;
  /** `ENGINE = …` of the table (or of each shard's local table). */
  engine: string;
  orderBy?: string;
  partitionBy?: string;
  /** With a cluster: which shard a row goes to. */
  shardBy: string;
}

const CALL_KEY =
  'project String, cut String, op String, level String, t Int64, root UInt8, status String, value String, hist String, bin Int32';
const FEEDBACK_KEY =
  'project String, cut String, op String, level String, t Int64, root UInt8, name String, value String, dvalue String';
const CALL_KEY_COLUMNS = 'project, cut, op, level, t, root, status, value, hist, bin';
const FEEDBACK_KEY_COLUMNS = 'project, cut, op, level, t, root, name, value, dvalue';
/** A month of bucket starts (epoch ms) per partition: retention drops whole months. */
const MONTH_OF_T = 'toYYYYMM(toDateTime(toUInt32(intDiv(t, 1000))))';

/** The number fields of `CallRollupValues`: what a sum column adds up. */
type CallSumField = {
  [K in keyof CallRollupValues]: CallRollupValues[K] extends number ? K : never;
}[keyof CallRollupValues];

/**
 * The sums of a call rollup: whole numbers (µs, nano-dollars, counts) exact
 * as Int64, tokens as Float64; each column with the field of
 * `CallRollupValues` it sums (the change rows of ingest are built from it).
 */
export const CALL_SUM_COLUMNS: readonly [column: string, type: 'Int64' | 'Float64', field: CallSumField][] = [
  ['n', 'Int64', 'n'],
  ['latency_sum_us', 'Int64', 'latencySumUs'],
  ['ttft_n', 'Int64', 'ttftN'],
  ['ttft_sum_us', 'Int64', 'ttftSumUs'],
  ['input_tokens', 'Float64', 'inputTokens'],
  ['output_tokens', 'Float64', 'outputTokens'],
  ['cached_tokens', 'Float64', 'cachedTokens'],
  ['reasoning_tokens', 'Float64', 'reasoningTokens'],
  ['total_tokens', 'Float64', 'totalTokens'],
  ['cost_n', 'Int64', 'costN'],
  ['cost_nano', 'Int64', 'costNano'],
];

export const ROLLUP_TABLES: readonly RollupTableSpec[] = [
  {
    name: 'rollup_facts',
    columns:
      "project String, id String, start String DEFAULT '', end String DEFAULT '', feedback_waiting UInt8, completed UInt8, seq UInt64",
    engine: 'ReplacingMergeTree(seq)',
    orderBy: '(project, id)',
    shardBy: 'cityHash64(project, id)',
  },
  {
    name: 'call_completions',
    columns: 'project String, seq UInt64, id String',
    engine: 'MergeTree',
    orderBy: '(project, seq)',
    shardBy: 'cityHash64(project, id)',
  },
  {
    name: 'call_rollup_changes',
    columns: `${CALL_KEY}, ${CALL_SUM_COLUMNS.map(([c, type]) => `${c} ${type}`).join(', ')}`,
    engine: 'Null',
    shardBy: 'cityHash64(project, t)',
  },
  {
    name: 'call_rollups',
    columns: `${CALL_KEY}, ${CALL_SUM_COLUMNS.map(([c, type]) => `${c} AggregateFunction(sum, ${type})`).join(', ')}`,
    engine: 'AggregatingMergeTree',
    orderBy: `(${CALL_KEY_COLUMNS})`,
    partitionBy: MONTH_OF_T,
    shardBy: 'cityHash64(project, t)',
  },
  {
    name: 'feedback_rollup_changes',
    columns: `${FEEDBACK_KEY}, n Int64, numeric_n Int64, sum Float64, sum_squares Float64`,
    engine: 'Null',
    shardBy: 'cityHash64(project, t)',
  },
  {
    name: 'feedback_rollups',
    columns: `${FEEDBACK_KEY}, n AggregateFunction(sum, Int64), numeric_n AggregateFunction(sum, Int64),
      sum AggregateFunction(sum, Float64), sum_squares AggregateFunction(sum, Float64)`,
    engine: 'AggregatingMergeTree',
    orderBy: `(${FEEDBACK_KEY_COLUMNS})`,
    partitionBy: MONTH_OF_T,
    shardBy: 'cityHash64(project, t)',
  },
  {
    name: 'monitor_documents',
    columns:
      'project String, kind String, key String, value String, version UInt64, deleted UInt8, updated_at Float64',
    engine: 'ReplacingMergeTree(version)',
    orderBy: '(project, kind, key)',
    shardBy: 'cityHash64(project, kind, key)',
  },
  {
    name: 'monitor_log',
    columns: 'project String, kind String, key String, at Float64, seq UInt64, value String',
    engine: 'MergeTree',
    orderBy: '(project, kind, key, at, seq)',
    shardBy: 'cityHash64(project, kind, key)',
  },
];

/** The materialized views that fold change rows into aggregate states. */
export const ROLLUP_VIEWS: readonly {
  name: string;
  from: string;
  to: string;
  columns: string;
  key: string;
}[] = [
  {
    name: 'call_rollups_mv',
    from: 'call_rollup_changes',
    to: 'call_rollups',
    columns: `${CALL_KEY_COLUMNS}, ${CALL_SUM_COLUMNS.map(([c]) => `sumState(${c}) AS ${c}`).join(', ')}`,
    key: CALL_KEY_COLUMNS,
  },
  {
    name: 'feedback_rollups_mv',
    from: 'feedback_rollup_changes',
    to: 'feedback_rollups',
    columns: `${FEEDBACK_KEY_COLUMNS}, sumState(n) AS n, sumState(numeric_n) AS numeric_n, sumState(sum) AS sum,
      sumState(sum_squares) AS sum_squares`,
    key: FEEDBACK_KEY_COLUMNS,
  },
];

/**
 * DDL of the rollup tables and views: on a single server the tables
 * themselves; in a cluster `<name>_local` on every shard (each view folds
 * its shard's changes into its shard's rollups) plus `Distributed` tables
 * `<name>` over them, so reads and inserts name `<name>` either way.
 */
export function rollupStatements(database: string, cluster: string | undefined): string[] {
  const local = (name: string) => (cluster === undefined ? name : `${name}_local`);
  const statements: string[] = [];
  for (const table of ROLLUP_TABLES) {
    const partition = table.partitionBy === undefined ? '' : ` PARTITION BY ${table.partitionBy}`;
    const order = table.orderBy === undefined ? '' : ` ORDER BY ${table.orderBy}`;
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${database}.${local(table.name)} (${table.columns}) ENGINE = ${table.engine}${partition}${order}`,
    );
    if (cluster !== undefined) {
      statements.push(
        `CREATE TABLE IF NOT EXISTS ${database}.${table.name} AS ${database}.${local(table.name)} ENGINE = Distributed(${cluster}, ${database}, ${local(table.name)}, ${table.shardBy})`,
      );
    }
  }
  for (const view of ROLLUP_VIEWS) {
    statements.push(
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.${local(view.name)} TO ${database}.${local(view.to)} AS SELECT ${view.columns} FROM ${database}.${local(view.from)} GROUP BY ${view.key}`,
    );
  }
  return statements;
}
