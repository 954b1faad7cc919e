import { availableParallelism } from 'node:os';
import { DEFAULT_PORT } from '@weft/protocol';
import { InvalidArgumentError } from 'commander';
import { defineCommand } from '../define-command.js';
import { flagOrEnv } from '../env-value.js';
import { parseNonEmpty, parsePort, parsePositiveInt } from '../flag-values.js';
import type { ServeOptions } from './serve-options.js';

interface ServeFlags {
  host: string;
  port: number;
  db: string;
  storage: string;
  token: string;
  tokensFile: string;
  retentionDays: number;
  allowedHosts: string[];
  workers: number | 'auto';
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_DB_PATH = './.weft/weft.db';

export const serveCommand = defineCommand<ServeOptions, ServeFlags>({
  path: ['serve'],
  summary: 'Run the trace server (HTTP API and web UI) until Ctrl+C',
  configure(command) {
    command
      .option('--host <host>', 'interface to listen on; beyond loopback a token is required', parseNonEmpty)
      .option('--port <port>', `port to listen on, 0 for any free port (default: ${DEFAULT_PORT})`, parsePort)
      .option('--db <path>', `SQLite database file (default: ${DEFAULT_DB_PATH})`, parseNonEmpty)
      .option(
        '--storage <url>',
        'sqlite:PATH, chdb:PATH (ClickHouse in-process, npm chdb) or clickhouse://[USER[:PASSWORD]@]HOST:PORT/DATABASE[?cluster=NAME] (env: WEFT_STORAGE; ClickHouse credentials also from WEFT_CLICKHOUSE_USER, WEFT_CLICKHOUSE_PASSWORD)',
        parseNonEmpty,
      )
      .option(
        '--token <token>',
        'admin bearer token, reaches every project (env: WEFT_TOKEN, preferred: a flag is visible in the process list)',
        parseNonEmpty,
      )
      .option(
        '--tokens-file <path>',
        'JSON file of per-project tokens {"<token>": ["project", ...]} (env: WEFT_TOKENS_FILE)',
        parseNonEmpty,
      )
      .option(
        '--retention-days <days>',
        'delete traces older than this in projects that set no retention of their own (env: WEFT_RETENTION_DAYS; default: keep)',
        parsePositiveInt,
      )
      .option(
        '--allowed-hosts <names>',
        'comma-separated host names to answer besides loopback names and the listen address, e.g. the name a reverse proxy forwards (env: WEFT_ALLOWED_HOSTS)',
        parseHostNames,
      )
      .option(
        '--workers <n>',
        'server processes sharing the port, each with its own inserts (ClickHouse servers only), or auto: one per available core (env: WEFT_WORKERS; default: 1)',
        parseWorkers,
      );
  },
  resolve(_args, flags, env) {
    const username = flagOrEnv(undefined, env, 'WEFT_CLICKHOUSE_USER', parseNonEmpty);
    const password = flagOrEnv(undefined, env, 'WEFT_CLICKHOUSE_PASSWORD', (value) => value);
    return {
      host: flags.host ?? DEFAULT_HOST,
      port: flags.port ?? DEFAULT_PORT,
      dbPath: flags.db ?? DEFAULT_DB_PATH,
      storage: flagOrEnv(flags.storage, env, 'WEFT_STORAGE', parseNonEmpty),
      ...(username === undefined && password === undefined
        ? {}
        : { storageCredentials: { username, password } }),
      token: flagOrEnv(flags.token, env, 'WEFT_TOKEN', parseNonEmpty),
      tokenOnCommandLine: flags.token !== undefined,
      tokensFile: flagOrEnv(flags.tokensFile, env, 'WEFT_TOKENS_FILE', parseNonEmpty),
      retentionDays: flagOrEnv(flags.retentionDays, env, 'WEFT_RETENTION_DAYS', parsePositiveInt),
      allowedHosts: flagOrEnv(flags.allowedHosts, env, 'WEFT_ALLOWED_HOSTS', parseHostNames),
      workers: workerCount(flagOrEnv(flags.workers, env, 'WEFT_WORKERS', parseWorkers) ?? 1),
    };
  },
  load: async () => (await import('./serve.js')).serve,
});

/** `--workers`: a whole number of at least 1, or `auto`. */
function parseWorkers(value: string): number | 'auto' {
  if (value.trim().toLowerCase() === 'auto') return 'auto';
  try {
    return parsePositiveInt(value);
  } catch {
    throw new InvalidArgumentError(
      'Expected a whole number of at least 1, or auto (one per available core).',
    );
  }
}

/** `auto` → the cores this process may use (`os.availableParallelism`, which honours CPU affinity). */
function workerCount(workers: number | 'auto'): number {
  return workers === 'auto' ? availableParallelism() : workers;
}

/** `a.example,b.example` → the names, lower-case, without ports. */
function parseHostNames(value: string): string[] {
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (
    names.length === 0 ||
    names.some((name) => !/^[a-z0-9.\-_:[\]]+$/.test(name) || /^[^:]*:\d+$|\]:\d+$/.test(name))
  ) {
    throw new InvalidArgumentError(
      'Expected comma-separated host names without ports, e.g. traces.example.com,10.0.0.5.',
    );
  }
  return names;
}

export type { ServeOptions } from './serve-options.js';
