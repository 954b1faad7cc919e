/** Options of `weft migrate`. */
export interface MigrateOptions {
  /** Storage URL to copy from (`sqlite:PATH`, `chdb:PATH` or `clickhouse://…`). */
  from: string;
  /** Storage URL to copy into (`chdb:PATH` or `clickhouse://…`; `sqlite:PATH` works too). */
  to: string;
  /** ClickHouse credentials from `WEFT_CLICKHOUSE_USER` / `WEFT_CLICKHOUSE_PASSWORD` (a URL's own win). */
  storageCredentials?: { username?: string | undefined; password?: string | undefined } | undefined;
}
