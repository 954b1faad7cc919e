import type { SchemaProfile } from './schema-profile.js';
import { sqlLiteral } from './sql-literal.js';

/**
 * SQL of `call_list`'s time columns, which differ by profile: `DateTime64(6)`
 * on modern servers, `Int64` microseconds on 18.16 (which has no
 * DateTime64). Both hold the same microseconds; queries go through these.
 */
export interface ListTimeSql {
  /** Column type. */
  type: string;
  /** A time column as integer microseconds since the epoch. */
  micros(column: string): string;
  /** Microseconds since the epoch as a value comparable with a time column. */
  literal(micros: number): string;
  /** The month (`YYYYMM`) of a time column, the partition key. */
  month(column: string): string;
  /** A Float64 expression of epoch milliseconds (the halves' times) as a time value. */
  fromMillis(expression: string): string;
}

export function listTimeSql(profile: SchemaProfile): ListTimeSql {
  if (profile.kind === 'modern') {
    return {
      type: "DateTime64(6, 'UTC')",
      micros: (column) => `toUnixTimestamp64Micro(${column})`,
      literal: (micros) => `fromUnixTimestamp64Micro(toInt64(${sqlLiteral(micros)}), 'UTC')`,
      month: (column) => `toYYYYMM(${column})`,
      fromMillis: (expression) => `fromUnixTimestamp64Micro(toInt64(round(${expression} * 1000)), 'UTC')`,
    };
  }
  return {
    type: 'Int64',
    micros: (column) => column,
    literal: (micros) => sqlLiteral(micros),
    month: (column) => `toYYYYMM(toDateTime(intDiv(${column}, 1000000)))`,
    fromMillis: (expression) => `toInt64(round(${expression} * 1000))`,
  };
}

/** Milliseconds (the wire's times) as the microseconds `call_list` keeps: the contract's times to the microsecond. */
export function microsOf(ms: number): number {
  return Math.round(ms * 1_000);
}

/** Columns of a list row that the sort-order projections carry: every filter but attributes, feedback and text. */
const PROJECTED =
  'project, id, version, started_at, latency_key, op_plain, op_name, status, parent_id, trace_id, session_id';

/**
 * `call_list`, one row per call whose start arrived: what lists, filters and
 * sorts read, apart from the values (`calls` keeps every half as it arrived,
 * and answers a page's full rows by primary key). Written at ingest, so no
 * read folds halves:
 *
 * - ORDER BY (project, started_at, id): a project's calls in time order, so
 *   the newest page, a time range and any filter walked newest-first read a
 *   few granules (read in order, stopping at LIMIT);
 * - ReplacingMergeTree(version): a call written again (its end arriving, a
 *   re-sent record, two replicas) keeps the row of the highest `version`,
 *   `has_end · 2^52 + seq`, so a row with both halves outranks a start alone
 *   whatever the order of writes, and a newer half outranks an older one.
 *   Reads never wait for that merge (see `ClickHouseCallQuery`);
 * - modern servers add: LowCardinality for project, op and status;
 *   bloom-filter indexes for ids, trace, parent, session and attribute
 *   terms; a set index for status; a full-text index (`text`, else
 *   `tokenbf_v1`) over `search`, the call's folded words; projections in
 *   latency and op-name order, so those sorts read in order too.
 */
export function callListStatements(
  database: string,
  table: string,
  profile: SchemaProfile,
  engine: string,
): string {
  const time = listTimeSql(profile);
  const modern = profile.kind === 'modern';
  const low = (type: string) => (modern ? `LowCardinality(${type})` : type);
  const codec = (spec: string) => (modern ? ` CODEC(${spec})` : '');
  const indexes = modern
    ? [
        'INDEX ix_id id TYPE bloom_filter(0.001) GRANULARITY 1',
        'INDEX ix_trace trace_id TYPE bloom_filter(0.001) GRANULARITY 1',
        'INDEX ix_parent parent_id TYPE bloom_filter(0.01) GRANULARITY 1',
        'INDEX ix_session session_id TYPE bloom_filter(0.01) GRANULARITY 1',
        'INDEX ix_terms attr_terms TYPE bloom_filter(0.01) GRANULARITY 1',
        'INDEX ix_op op_plain TYPE set(1000) GRANULARITY 1',
        'INDEX ix_status status TYPE set(3) GRANULARITY 1',
        profile.textIndex === 'text'
          ? "INDEX ix_search search TYPE text(tokenizer = 'splitByNonAlpha') GRANULARITY 64"
          : 'INDEX ix_search search TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 1',
        `PROJECTION by_latency (SELECT ${PROJECTED} ORDER BY project, latency_key, id)`,
        `PROJECTION by_op (SELECT ${PROJECTED} ORDER BY project, op_plain, started_at, id)`,
      ]
    : [];
  const columns = [
    `project ${low('String')}`,
    `started_at ${time.type}${codec('Delta, ZSTD(1)')}`,
    'id String',
    'version UInt64',
    'trace_id String',
    "parent_id String DEFAULT ''",
    'op_name String',
    `op_plain ${low('String')}`,
    'display_name String',
    'has_display UInt8',
    "session_id String DEFAULT ''",
    `status ${low('String')}`,
    'has_end UInt8',
    `ended_at ${time.type}`,
    'latency_key Float64',
    'total_tokens Float64',
    'cost_usd Float64',
    'attr_terms Array(String)',
    `search String${codec('ZSTD(1)')}`,
  ];
  const settings = modern ? " SETTINGS deduplicate_merge_projection_mode = 'rebuild'" : '';
  return `CREATE TABLE IF NOT EXISTS ${database}.${table} (${[...columns, ...indexes].join(', ')}) ENGINE = ${engine} PARTITION BY ${time.month('started_at')} ORDER BY (project, started_at, id)${settings}`;
}
