/** Days in UTC: what the scheduled export partitions by. */
export const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of the UTC day starting at `dayStartMs`. */
export function dayName(dayStartMs: number): string {
  return new Date(dayStartMs).toISOString().slice(0, 10);
}

/** The start (UTC midnight) of the day holding `ms`. */
export function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * The folder of one project's day, Hive-style (`key=value` segments), so
 * engines that read partitioned data sets (DuckDB, Spark, Athena, Polars)
 * see `project` and `date` as columns: `project=<name>/date=<YYYY-MM-DD>`.
 * Project names are letters, digits, `.`, `_` and `-`, safe in a path.
 */
export function hivePartition(project: string, dayStartMs: number): string {
  return `project=${project}/date=${dayName(dayStartMs)}`;
}
