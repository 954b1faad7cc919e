import type { ClickHouseConnection } from './clickhouse-connection.js';
import { sqlLiteral } from './sql-literal.js';

/**
 * Which ClickHouse the schema is written for, decided once per database at
 * migration time from the server's version and then read back from the
 * table itself (a database created on 18.16 keeps its 18.16 column types
 * after an upgrade):
 *
 * - `modern` (ClickHouse 24 and later; chDB 3.4 is 26.7): `DateTime64(6)`
 *   times, `LowCardinality` strings, column codecs, data-skipping indexes
 *   (bloom filters, a full-text index where the server has one, else
 *   `tokenbf_v1`), projections for the other sort orders, TTLs;
 * - `legacy` (ClickHouse 18.16, Debian's package, which the multi-process
 *   tests run): none of those exist there, so the same tables with plain
 *   types, times as `Int64` microseconds, and no indexes. Same rows, same
 *   answers; only slower.
 */
export interface SchemaProfile {
  kind: 'modern' | 'legacy';
  /** The full-text index type `search` gets on a modern server: `text` (25.x+) or `tokenbf_v1`. */
  textIndex: 'text' | 'tokenbf_v1' | 'none';
  /**
   * Whether the server builds projections of an AggregatingMergeTree
   * (24.8+, `deduplicate_merge_projection_mode`): decided from the server
   * running the migration, not stored with the tables.
   */
  projectionsOnAggregates?: boolean;
}

/** The oldest major version the modern schema is written for. */
const MODERN_MAJOR = 24;

/** The profile for a server of `version` (`SELECT version()`), the text index decided by `probeTextIndex`. */
export function profileForVersion(version: string, textIndex: 'text' | 'tokenbf_v1'): SchemaProfile {
  const major = Number.parseInt(version, 10);
  return major >= MODERN_MAJOR ? { kind: 'modern', textIndex } : { kind: 'legacy', textIndex: 'none' };
}

/** Whether a server of `version` builds projections of an AggregatingMergeTree (24.8 and later). */
export function buildsProjectionsOnAggregates(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  return major > 24 || (major === 24 && minor >= 8);
}

/**
 * What start-up learns of the ClickHouse server from its version, asked once
 * ({@link detectServer}) and handed to what depends on it: the migrations
 * (the profile of a new database, projections) and the row deleter.
 */
export interface ClickHouseServer {
  /** `24.8.1.1`, `18.16.1`: every host of a cluster is expected to run the same. */
  version: string;
  /** Builds projections of an AggregatingMergeTree (24.8 and later). */
  projectionsOnAggregates: boolean;
  /** Has the lightweight `DELETE FROM` (23.3 and later). */
  lightweightDeletes: boolean;
}

/** Asks the server its version (one `SELECT version()`) and what follows from it. */
export async function detectServer(connection: ClickHouseConnection): Promise<ClickHouseServer> {
  const [row] = await connection.rows<{ v: string }>('SELECT version() AS v');
  const version = row?.v ?? '0';
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  return {
    version,
    projectionsOnAggregates: buildsProjectionsOnAggregates(version),
    lightweightDeletes: major > 23 || (major === 23 && minor >= 3),
  };
}

/**
 * The profile a database's `call_list` table was created with (its
 * `started_at` type tells), or `undefined` before migration 5 made it.
 */
export async function storedProfile(
  connection: ClickHouseConnection,
  database: string,
  table: string,
): Promise<SchemaProfile | undefined> {
  const rows = await connection.rows<{ type: string }>(
    `SELECT type FROM system.columns WHERE database = ${sqlLiteral(database)} AND table = ${sqlLiteral(table)} AND name = 'started_at'`,
  );
  const type = rows[0]?.type;
  if (type === undefined) return undefined;
  if (!type.startsWith('DateTime64')) return { kind: 'legacy', textIndex: 'none' };
  const [index] = await connection.rows<{ type: string }>(
    `SELECT type FROM system.data_skipping_indices WHERE database = ${sqlLiteral(database)} AND table = ${sqlLiteral(table)} AND name = 'ix_search'`,
  );
  return { kind: 'modern', textIndex: index?.type === 'text' ? 'text' : 'tokenbf_v1' };
}
