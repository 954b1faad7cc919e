import { DEFAULT_PORT } from '@weft/protocol';
import { defineCommand } from '../define-command.js';
import { flagOrEnv } from '../env-value.js';
import { parseNonEmpty, parsePort } from '../flag-values.js';

/** Options of `weft serve`. */
export interface ServeOptions {
  /** Interface to listen on. Anything but loopback requires `token`. */
  host: string;
  /** 0 picks a free port; the URL printed on start has the real one. */
  port: number;
  /** SQLite database file; its folder is created when missing. */
  dbPath: string;
  /** Bearer token clients must send; from `--token`, else `WEFT_TOKEN`. */
  token: string | undefined;
}

interface ServeFlags {
  host: string;
  port: number;
  db: string;
  token: string;
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
      .option('--token <token>', 'bearer token clients must send (env: WEFT_TOKEN)', parseNonEmpty);
  },
  resolve(_args, flags, env) {
    return {
      host: flags.host ?? DEFAULT_HOST,
      port: flags.port ?? DEFAULT_PORT,
      dbPath: flags.db ?? DEFAULT_DB_PATH,
      token: flagOrEnv(flags.token, env, 'WEFT_TOKEN', parseNonEmpty),
    };
  },
  load: async () => (await import('./serve.js')).serve,
});
