import type { SchemaProfile } from './schema-profile.js';

/**
 * Migration 9 (servers that build projections of an AggregatingMergeTree:
 * 24.8+; others keep reading the table's own order): `call_rollups` gets
 * the projection `by_hist`, its rows ordered with the histogram before the
 * bucket time. In the table's order (…, level, t, root, status, value,
 * hist, bin) each hour's few rows of sums sit among its many histogram-bin
 * rows, so a panel of counts, costs or tokens read every bin row of its
 * hours only to drop them — at 10,000,000 calls 442,389 rows read for 242
 * answered (8.6 M of the 8.8 M hour rows are bins). ClickHouse picks the
 * projection for a read whose `hist` condition selects fewer marks there.
 * `deduplicate_merge_projection_mode = 'rebuild'` is what lets a table whose
 * merges combine rows keep a projection: each merged part's projection is
 * built again from the merged rows, so it never disagrees with the table.
 * The existing parts get it by a mutation that runs in the background.
 */
export function rollupProjectionStatements(
  database: string,
  cluster: string | undefined,
  profile: SchemaProfile,
): string[] {
  if (profile.kind !== 'modern' || profile.projectionsOnAggregates !== true) return [];
  const table = `${database}.${cluster === undefined ? 'call_rollups' : 'call_rollups_local'}`;
  return [
    `ALTER TABLE ${table} MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild'`,
    `ALTER TABLE ${table} ADD PROJECTION IF NOT EXISTS by_hist (SELECT * ORDER BY (project, cut, op, level, hist, t, root, status, value, bin))`,
    `ALTER TABLE ${table} MATERIALIZE PROJECTION by_hist`,
  ];
}
