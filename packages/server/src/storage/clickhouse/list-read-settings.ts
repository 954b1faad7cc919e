import type { ClickHouseConnection } from './clickhouse-connection.js';

/**
 * The SETTINGS clause of the reads of `call_list` (the walk, the version
 * check), decided from the server's settings ('' where there is nothing to
 * set: an unknown setting is an error, and 18.16 or 24.x lack this one).
 *
 * ClickHouse 26 applies data-skipping indexes while reading
 * (`use_skip_indexes_on_data_read = 1`, its default): measured on chDB 26.7
 * at 300,000 calls, the version check of a page's 50 ids by the id bloom
 * filter then read the `id` column of every row (325,001 rows, 34 ms CPU)
 * instead of one granule (10,624 rows, 9 ms), a session walk 682,770 rows
 * instead of 24,576, a trace page 361,001 instead of 58,578. With the
 * setting off, the indexes drop granules before the read, as on earlier
 * servers.
 */
export async function listReadSettings(connection: ClickHouseConnection): Promise<string> {
  const rows = await connection.rows<{ n: number | string }>(
    "SELECT count() AS n FROM system.settings WHERE name = 'use_skip_indexes_on_data_read'",
  );
  return Number(rows[0]?.n ?? 0) > 0 ? ' SETTINGS use_skip_indexes_on_data_read = 0' : '';
}
