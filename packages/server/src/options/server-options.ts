import { callBatch, DEFAULT_PORT, exportFormat, retentionDays } from '@weft/protocol';
import { z } from 'zod';
import { InvalidOptionsError } from '../errors/index.js';
import { playgroundProviderConfig } from '../playground/index.js';
import { monitoringOptions } from './monitoring-options.js';
import { redactedIssuePath } from './redacted-issue-path.js';

/** 64 MiB: large enough for a batch of big records or a sizeable file, small enough to bound memory. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * 1,000,000 values per request (map keys and a batch's value items
 * included). Ingesting a call whose inputs hold a million empty maps took
 * 1.7 s and 220 MB here, and every read of it 1.5 s; an 8 MiB table chunk
 * of float embeddings holds about 930,000. The SDK caps one value at 20,000.
 */
export const DEFAULT_MAX_BODY_NODES = 1_000_000;

/** Tokens travel in an HTTP header: visible ASCII, no spaces. */
export const bearerToken = z
  .string()
  .regex(
    /^[\x21-\x7e]+$/,
    'must be 1 or more visible ASCII characters without spaces (it travels in a header)',
  );

/** token → project names it may reach; each token needs at least one project. */
export const projectTokens = z.record(
  bearerToken,
  z.array(callBatch.shape.project).min(1, 'list at least one project'),
);

/** Log levels of the server's request log. */
export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** Where the server writes its JSON log lines (a file stream, `process.stderr`, a test capture). */
export interface LogStream {
  write(line: string): unknown;
}

/** Options of {@link startServer} (and, except host/port/dbPath, of `createApp`). */
export const serverOptions = z.object({
  /**
   * Address to listen on. Anything but loopback requires `token`.
   * @default '127.0.0.1'
   */
  host: z.string().min(1).default('127.0.0.1'),
  /**
   * TCP port; 0 picks a free one (read it back from `RunningServer.port`).
   * @default DEFAULT_PORT (7420)
   */
  port: z.number().int().min(0).max(65_535).default(DEFAULT_PORT),
  /**
   * SQLite database file; its folder is created.
   * @default './.weft/weft.db'
   */
  dbPath: z.string().min(1).default('./.weft/weft.db'),
  /**
   * Storage URL; when set it wins over `dbPath`. `sqlite:PATH` is the same
   * as `dbPath: PATH`; `clickhouse://[USER[:PASSWORD]@]HOST:PORT/DATABASE[?cluster=NAME]`
   * stores in ClickHouse, so several servers can share one database;
   * `chdb:PATH` in ClickHouse inside this process (npm `chdb`, installed
   * apart; see docs/scale-out.md and `parseStorageUrl`).
   * @default none: SQLite at `dbPath`
   */
  storage: z.string().min(1).optional(),
  /** ClickHouse user and password when the `storage` URL has none (the CLI reads `WEFT_CLICKHOUSE_USER` / `WEFT_CLICKHOUSE_PASSWORD`). */
  storageCredentials: z
    .object({ username: z.string().optional(), password: z.string().optional() })
    .optional(),
  /**
   * Admin bearer token: every /v1 request must carry it or a project token,
   * and it reaches every project. Beyond loopback, this or `projectTokens`
   * is required.
   */
  token: bearerToken.optional(),
  /**
   * Per-project tokens: token → the project names it may reach. A request
   * for another project is refused with 403 `WEFT_FORBIDDEN`. Read one from
   * a JSON file with `readTokensFile`.
   */
  projectTokens: projectTokens.optional(),
  /**
   * JSON file of more per-project tokens, `{ "<token>": ["projA", …] }`,
   * read once by `startServer` (not by `createApp`) and merged with
   * `projectTokens`. Keep it readable by the server's user only.
   */
  tokensFile: z.string().min(1).optional(),
  /**
   * Largest request body accepted; larger ones get 413.
   * @default 64 MiB
   */
  maxBodyBytes: z.number().int().positive().default(DEFAULT_MAX_BODY_BYTES),
  /**
   * Most values one request body may hold (every value and map key,
   * containers once each, and the values inside a batch's value items),
   * counted before anything is decoded; more get 413.
   * @default 1,000,000
   */
  maxBodyNodes: z.number().int().positive().default(DEFAULT_MAX_BODY_NODES),
  /**
   * Host names (as in the `Host` header, without port) the server answers
   * besides loopback names and the address it listens on. A server on a
   * loopback address answers no other `Host` (a page whose name resolves
   * to 127.0.0.1 is refused: DNS rebinding); one listening beyond loopback
   * answers any `Host` unless this is set.
   * @default none
   */
  allowedHosts: z.array(z.string().min(1).max(253)).optional(),
  /**
   * Time to receive a request's headers; a client still sending them is cut.
   * @default 10 s
   */
  headersTimeoutMs: z.number().int().positive().default(10_000),
  /**
   * Time to receive a whole request, headers and body; a slower upload is
   * cut (408 when an answer can still be written).
   * @default 60 s
   */
  requestTimeoutMs: z.number().int().positive().default(60_000),
  /**
   * A connection on which nothing is read or written for this long is
   * closed: a client that stops reading its answer, a stalled upload. The
   * time the server itself works on a request does not count.
   * @default 30 s
   */
  idleTimeoutMs: z.number().int().positive().default(30_000),
  /**
   * How long an idle keep-alive connection is kept for the client's next request.
   * @default 5 s
   */
  keepAliveTimeoutMs: z.number().int().positive().default(5_000),
  /**
   * How long closing the server lets answers already streaming run on (an
   * export to a client that reads slowly or not at all); those still
   * running then are cut, so close() ends.
   * @default 10 s
   */
  closeTimeoutMs: z.number().int().positive().default(10_000),
  /**
   * Most open connections; further ones are closed as they arrive. Keep it
   * well under the process's descriptor limit (`ulimit -n`), which the
   * database and its files share.
   * @default 512
   */
  maxConnections: z.number().int().positive().default(512),
  /**
   * Most requests in progress of each kind — ingest (call batches, OTLP
   * traces) and the rest (reads) — `/health` and `/version` aside; past it
   * a request is answered 503 `WEFT_OVERLOADED` before its body is parsed,
   * with a `Retry-After` (1–30 s) from the rate the server has been
   * finishing that kind of request. A request counts until its handler
   * (its storage write) has finished, even when its client left sooner.
   * The server works on one thread: more requests at once
   * add latency, not throughput (with 100 clients sending 1 MB batches at
   * once, `/health` took 6.9 s without a cap, 1.4–1.6 s with a cap of 2).
   * @default 8
   */
  maxRequestsInFlight: z.number().int().positive().default(8),
  /**
   * Most body bytes of the requests in progress (by `Content-Length`; a
   * chunked body counts as `maxBodyBytes`); past it, 503 as above.
   * @default 256 MiB
   */
  maxBodyBytesInFlight: z
    .number()
    .int()
    .positive()
    .default(256 * 1024 * 1024),
  /**
   * Folder holding the built web UI (with index.html); `false` serves none.
   * @default the `ui` folder next to the built server
   */
  uiDir: z.union([z.string().min(1), z.instanceof(URL), z.literal(false)]).optional(),
  /**
   * Model providers the web UI's playground may run prompts against
   * (OpenAI-compatible endpoints and Anthropic). Keys stay on the server:
   * the browser sees each provider's id, kind and models only. `[]` turns
   * the playground's runs off.
   * @default the providers `OPENAI_API_KEY` (with `OPENAI_BASE_URL`) and `ANTHROPIC_API_KEY` (with `ANTHROPIC_BASE_URL`) describe
   */
  playgroundProviders: z.array(playgroundProviderConfig).optional(),
  /**
   * Days calls are kept in projects that set no retention of their own;
   * older traces are deleted in the background (calls with feedback,
   * dataset rows, evaluation runs and traces matched by a project's keep
   * rules excepted). See docs/operations.md, "Retention".
   * @default none: calls are kept until deleted
   */
  retentionDays: retentionDays.optional(),
  /**
   * Run the background jobs of the data lifecycle in this process: retention
   * passes and, with `exportDir`, the scheduled export. Off in all but one of
   * several processes of one replica (`weft serve --workers N`), which share
   * its work; the routes (deletion, export, project settings) answer either way.
   * @default true
   */
  backgroundJobs: z.boolean().default(true),
  /**
   * Time between retention passes over every project.
   * @default 10 minutes
   */
  retentionIntervalMs: z
    .number()
    .int()
    .positive()
    .default(10 * 60_000),
  /**
   * Folder the scheduled export writes each project's calls to, one file
   * per UTC day once the day has ended (`project=<name>/date=<YYYY-MM-DD>/calls.parquet`).
   * @default none: no scheduled export
   */
  exportDir: z.string().min(1).optional(),
  /**
   * Format of the scheduled export's files.
   * @default 'parquet'
   */
  exportFormat: exportFormat.default('parquet'),
  /**
   * Time between scheduled export runs.
   * @default 1 hour
   */
  exportIntervalMs: z
    .number()
    .int()
    .positive()
    .default(60 * 60_000),
  /**
   * Destination of the request log (one JSON object a line). Authorization
   * and cookie headers are redacted and bodies are never logged.
   * @default none: the server logs nothing
   */
  logStream: z
    .custom<LogStream>(
      (value) => typeof (value as LogStream | null)?.write === 'function',
      'must have a write(line) method',
    )
    .optional(),
  /**
   * Least severe level written to `logStream`.
   * @default 'info'
   */
  logLevel: logLevel.default('info'),
  /** Monitoring's scheduler, webhook deliveries and links (see `MonitoringOptions`). */
  monitoring: monitoringOptions.default(() => monitoringOptions.parse({})),
});
export type ServerOptions = z.input<typeof serverOptions>;
export type ServerOptionsParsed = z.output<typeof serverOptions>;

/** Validates options, throwing `WEFT_INVALID_OPTIONS` naming the first bad one. */
export function parseServerOptions(input: ServerOptions = {}): ServerOptionsParsed {
  const result = serverOptions.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  // The path of a bad projectTokens entry would contain the token itself.
  throw new InvalidOptionsError(
    issue ? redactedIssuePath(issue.path, input) : '',
    issue?.message ?? 'invalid',
  );
}
