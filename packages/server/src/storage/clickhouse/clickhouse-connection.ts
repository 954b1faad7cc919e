import {
  type ClickHouseClient,
  ClickHouseLogLevel,
  type ClickHouseSettings,
  createClient,
} from '@clickhouse/client';
import { channel } from 'node:diagnostics_channel';
import { Readable } from 'node:stream';
import { StorageUnavailableError } from '../../errors/index.js';
import type { ChdbConnectionFactory } from './chdb-connection.js';
import { type NumberText, tabSeparated } from './tab-separated.js';

/**
 * Which ClickHouse: servers over HTTP (`http://host:port`; queries go to the
 * first, DDL to each), or chDB in this process (see `loadChdb`).
 */
export type ClickHouseEndpoint =
  | { kind: 'http'; hosts: readonly string[] }
  | { kind: 'chdb'; connect: ChdbConnectionFactory };

/** Where and how to reach ClickHouse; see `ClickHouseStorageOptions`. */
export interface ClickHouseConnectionOptions {
  endpoint: ClickHouseEndpoint;
  username: string;
  password: string;
  requestTimeoutMs: number;
  retryAfterMs: number;
  /** Settings sent with every query (e.g. `distributed_product_mode` for a cluster). */
  settings: ClickHouseSettings;
}

/**
 * Node error codes and ClickHouse messages that mean "not reachable now",
 * answered with 503 + Retry-After instead of 500.
 */
const UNAVAILABLE =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|socket hang up|Timeout error|timed out|Too many simultaneous queries|TOO_MANY_SIMULTANEOUS_QUERIES|Memory limit|Timeout exceeded|TIMEOUT_EXCEEDED|other side closed|UND_ERR/i;

/**
 * Every SELECT the adapter runs, published as `{ sql }` before it runs (for
 * profiling: the query bench subscribes and EXPLAINs them). Free when no one
 * subscribes.
 */
export const QUERY_CHANNEL = channel('weft:clickhouse:query');

/** Large `IN (…)` lists (known table rows) need more than the default 256 KiB of query text. */
const MAX_QUERY_BYTES = 16 * 1024 * 1024;

/**
 * The adapter's only path to ClickHouse, over HTTP with `@clickhouse/client`
 * (it works with 18.16 as long as no query uses server-side parameters; every
 * value goes through `sqlLiteral`). Reads and writes use separate clients, so
 * separate keep-alive pools: a slow insert holds a write socket, never the
 * socket a read needs. Failures to reach the server become
 * `StorageUnavailableError` (503 + Retry-After); anything else (a bug in the
 * SQL) stays a 500 with ClickHouse's message.
 */
/** What a store of one table is built with: the connection, its table's name and the insert settings. */
export interface ClickHouseTableTarget {
  connection: ClickHouseConnection;
  table: string;
  insertSettings: ClickHouseSettings;
}

export class ClickHouseConnection {
  readonly #reads: ClickHouseClient;
  readonly #writes: ClickHouseClient;
  readonly #ddl: ClickHouseClient[];
  readonly #retryAfterMs: number;

  constructor(options: ClickHouseConnectionOptions) {
    const { endpoint } = options;
    const client = (url: string, settings: ClickHouseSettings = {}) =>
      createClient({
        // chDB answers in-process through the client's `connection` option
        // (the URL is then unused); HTTP needs the URL.
        ...(endpoint.kind === 'chdb'
          ? {
              connection: endpoint.connect() as NonNullable<Parameters<typeof createClient>[0]>['connection'],
            }
          : { url }),
        username: options.username,
        password: options.password,
        request_timeout: options.requestTimeoutMs,
        max_open_connections: 16,
        // The client logs failed requests to the console; a server library
        // must not. Failures surface as errors (503 or 500) instead.
        log: { level: ClickHouseLogLevel.OFF },
        clickhouse_settings: { max_query_size: String(MAX_QUERY_BYTES), ...settings, ...options.settings },
      });
    const hosts = endpoint.kind === 'http' ? endpoint.hosts : ['chdb:'];
    const first = hosts[0] as string;
    // A read the server gave up on (503) must not run on in ClickHouse: 18.16
    // keeps a query running after its HTTP client left, so abandoned scans
    // would pile up and slow every later one.
    this.#reads = client(first, { max_execution_time: Math.ceil(options.requestTimeoutMs / 1000) });
    this.#writes = client(first);
    this.#ddl = hosts.map((url) => client(url));
    this.#retryAfterMs = options.retryAfterMs;
  }

  /** Rows of a SELECT (written with `sqlLiteral` for every value), decoded from JSONEachRow. */
  async rows<T>(sql: string): Promise<T[]> {
    if (QUERY_CHANNEL.hasSubscribers) QUERY_CHANNEL.publish({ sql });
    return this.#guard(async () => {
      const result = await this.#reads.query({ query: sql, format: 'JSONEachRow' });
      return result.json<T>();
    });
  }

  /**
   * The answer of a SELECT as `TabSeparated` text (read in place, see
   * `readTraceColumns`): for tens of thousands of rows of base64 values, no
   * JSON to parse at all (every server from 18.16 on writes it).
   */
  async tabSeparatedText(sql: string): Promise<string> {
    if (QUERY_CHANNEL.hasSubscribers) QUERY_CHANNEL.publish({ sql });
    return this.#guard(async () => {
      const result = await this.#reads.query({ query: sql, format: 'TabSeparated' });
      return result.text();
    });
  }

  /** Inserts rows as JSONEachRow (data, not SQL text: nothing in a value is parsed as SQL). */
  async insert(
    table: string,
    values: readonly Record<string, unknown>[],
    settings: ClickHouseSettings = {},
  ): Promise<void> {
    if (values.length === 0) return;
    await this.#guard(() =>
      this.#writes.insert({
        table,
        values: values as Record<string, unknown>[],
        format: 'JSONEachRow',
        clickhouse_settings: settings,
      }),
    );
  }

  /**
   * Inserts rows that each hold every one of `columns`, as TabSeparated (the
   * hot path of ingest: see `tabSeparated`; data, not SQL text, as with
   * `insert`). `numberTexts`: columns whose numbers are written otherwise (see `tabSeparated`).
   */
  async insertColumns(
    table: string,
    columns: readonly string[],
    values: readonly Readonly<Record<string, unknown>>[],
    settings: ClickHouseSettings = {},
    numberTexts: Readonly<Record<string, NumberText>> = {},
  ): Promise<void> {
    if (values.length === 0) return;
    const body = Buffer.from(tabSeparated(values, columns, numberTexts));
    await this.#guard(() =>
      this.#writes.insert({
        table,
        values: Readable.from([body], { objectMode: false }),
        format: 'TabSeparated',
        columns: columns as [string, ...string[]],
        clickhouse_settings: settings,
      }),
    );
  }

  /** Runs a statement on every host (schema changes: each shard holds its own local tables). */
  async commandOnEveryHost(sql: string): Promise<void> {
    await this.#guard(() => Promise.all(this.#ddl.map((c) => c.command({ query: sql }))));
  }

  /** Rows of a SELECT on every host, concatenated (per-host schema versions). */
  async rowsOnEveryHost<T>(sql: string): Promise<T[][]> {
    return this.#guard(() =>
      Promise.all(
        this.#ddl.map(async (c) => (await c.query({ query: sql, format: 'JSONEachRow' })).json<T>()),
      ),
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.#reads.close(), this.#writes.close(), ...this.#ddl.map((c) => c.close())]);
  }

  async #guard<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isUnavailable(error))
        throw new StorageUnavailableError({ retryAfterMs: this.#retryAfterMs, cause: error });
      throw error;
    }
  }
}

function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return UNAVAILABLE.test(`${code} ${error.message} ${(error.cause as Error | undefined)?.message ?? ''}`);
}
