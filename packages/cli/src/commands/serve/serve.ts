import cluster from 'node:cluster';
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseStorageUrl, redactStorageUrl, startServer } from '@weft/server';
import type { CliIo } from '../../io/index.js';
import { ExitCode } from '../../exit/index.js';
import type { ServeOptions } from './serve-options.js';
import { serveAsWorker } from './serve-worker.js';
import { refuseWorkersOn, startWorkers } from './serve-workers.js';
import { serverOptionsOf } from './server-options-of.js';
import { stopOnProcessSignals } from './stop-signal.js';

/**
 * `weft serve`: starts the trace server, prints where it listens, and closes
 * it gracefully (in-flight requests drained, database closed) when
 * `io.signal` aborts, or on SIGINT/SIGTERM when there is none. With
 * `workers` above 1 (ClickHouse servers only) this process is the replica's
 * primary: it migrates the schema, then runs that many worker processes on
 * the one port (see serve-workers.ts).
 */
export async function serve(options: ServeOptions, io: CliIo): Promise<number> {
  // `--storage sqlite:PATH` is `--db PATH`; any other URL names a remote engine.
  const target =
    options.storage === undefined ? undefined : parseStorageUrl(options.storage, options.storageCredentials);
  const workers = options.workers ?? 1;
  if (workers > 1) refuseWorkersOn(target, workers);
  const dbPath = resolve(target?.kind === 'sqlite' ? target.path : options.dbPath);
  const remote = target?.kind === 'clickhouse' ? (options.storage as string) : undefined;
  const serverOptions = serverOptionsOf(options, { dbPath, remote });
  if (cluster.isWorker) return serveAsWorker(serverOptions);
  // Owner-only, like the database files the server creates in it.
  if (remote === undefined) await mkdir(dirname(dbPath), { recursive: true, mode: 0o700 });
  if (options.tokenOnCommandLine) io.stderr.write(TOKEN_FLAG_WARNING);
  // Listen for signals before starting, so a SIGTERM that arrives while the
  // server is starting still closes it cleanly.
  const stop = io.signal ? { signal: io.signal, dispose: () => {} } : stopOnProcessSignals();
  try {
    // Refusals (no token beyond loopback, port taken) are WeftErrors whose
    // messages say what to change; runCli prints them and picks the exit code.
    const server =
      workers > 1 ? await startWorkers(serverOptions, workers, io) : await startServer(serverOptions);
    io.stdout.write(
      `Weft server listening on ${server.url}\n` +
        `  database  ${remote === undefined ? dbPath : redactStorageUrl(remote)}\n` +
        `  auth      ${authSummary(options)}\n` +
        (workers > 1 ? `  workers   ${workers} processes\n` : '') +
        'Press Ctrl+C to stop.\n',
    );
    if (!stop.signal.aborted) await once(stop.signal, 'abort');
    io.stdout.write('Stopping: draining requests and closing the database…\n');
    await server.close();
    io.stdout.write('Stopped.\n');
    return ExitCode.ok;
  } finally {
    stop.dispose();
  }
}

/** `--token`'s value is in the process list (`ps`, /proc) for every user of the machine. */
const TOKEN_FLAG_WARNING =
  'weft: warning: --token puts the admin token in the process list, where every user of this machine can read it; set WEFT_TOKEN or use --tokens-file instead.\n';

/** How clients authenticate, for the start banner; never shows a token. */
function authSummary({ token, tokensFile }: ServeOptions): string {
  if (token && tokensFile)
    return 'bearer token required (admin token, or a project token from the tokens file)';
  if (tokensFile) return 'bearer token required (project tokens from the tokens file)';
  return token ? 'bearer token required' : 'none (loopback only)';
}
