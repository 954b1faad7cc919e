/** Options of `weft serve`. */
export interface ServeOptions {
  /** Interface to listen on. Anything but loopback requires `token`. */
  host: string;
  /** 0 picks a free port; the URL printed on start has the real one. */
  port: number;
  /** SQLite database file; its folder is created when missing. */
  dbPath: string;
  /**
   * Storage URL (`sqlite:PATH`, `chdb:PATH` or `clickhouse://HOST:PORT/DATABASE[?cluster=NAME]`);
   * from `--storage`, else `WEFT_STORAGE`. Wins over `dbPath` when set.
   */
  storage?: string | undefined;
  /** ClickHouse credentials from `WEFT_CLICKHOUSE_USER` / `WEFT_CLICKHOUSE_PASSWORD` (the URL's own win). */
  storageCredentials?: { username?: string | undefined; password?: string | undefined } | undefined;
  /** Admin bearer token (every project); from `--token`, else `WEFT_TOKEN`. */
  token: string | undefined;
  /**
   * The admin token came from `--token`, where every user of the machine can
   * read it in the process list: `serve` warns and points to `WEFT_TOKEN`.
   */
  tokenOnCommandLine?: boolean | undefined;
  /**
   * JSON file of per-project tokens `{ "<token>": ["project", …] }`; from
   * `--tokens-file`, else `WEFT_TOKENS_FILE`.
   */
  tokensFile?: string | undefined;
  /**
   * Days traces are kept in projects that set no retention of their own
   * (the server's `retentionDays`); from `--retention-days`, else
   * `WEFT_RETENTION_DAYS`. Absent: calls are kept until deleted.
   */
  retentionDays?: number | undefined;
  /**
   * Host names answered besides loopback names and the listen address;
   * from `--allowed-hosts`, else `WEFT_ALLOWED_HOSTS` (comma-separated).
   */
  allowedHosts?: string[] | undefined;
  /**
   * Server processes of this replica (`--workers`, else `WEFT_WORKERS`;
   * `auto` resolved to the available cores). Above 1: ClickHouse servers only.
   * @default 1
   */
  workers?: number | undefined;
}
