import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { type ChildRun, runChild } from './child-process.js';

const serveScript = fileURLToPath(new URL('./fixtures/serve.ts', import.meta.url));

/** A real Weft server in its own process, so a test can SIGKILL it. */
export interface ServerProcess {
  /** Base URL; the same across `restart()` (the port is kept). */
  readonly url: string;
  readonly port: number;
  readonly dbPath: string;
  /** The running child, or undefined while stopped. */
  readonly child: ChildRun | undefined;
  /** Kills the server process (SIGKILL by default: no graceful shutdown) and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port with the same database. */
  start(): Promise<void>;
  /** Kills it (if running) and deletes its folder. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts the server from its sources in a child process, with SQLite in a
 * temp folder, and registers cleanup (vitest's `onTestFinished` unless
 * `register` is given). For "server killed with SIGKILL and restarted" tests.
 */
export async function startServerProcess(
  options: { token?: string; register?: (cleanup: () => Promise<void>) => void } = {},
): Promise<ServerProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'weft-server-process-'));
  const dbPath = join(dir, 'weft.db');
  const noRegister = () => {};
  let port = 0;
  let child: ChildRun | undefined;
  let closed: Promise<void> | undefined;

  const launch = async () => {
    const run = await runChild(serveScript, {
      env: { WEFT_PORT: String(port), WEFT_DB_PATH: dbPath, WEFT_TOKEN: options.token ?? '' },
      register: noRegister,
    });
    const line = await run.waitForLine(/^listening /);
    port = Number(new URL(line.slice('listening '.length)).port);
    child = run;
  };
  await launch();

  const server: ServerProcess = {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    dbPath,
    get child() {
      return child;
    },
    async kill(signal = 'SIGKILL') {
      const current = child;
      child = undefined;
      if (current === undefined) return;
      current.kill(signal);
      await current.exited;
    },
    async start() {
      if (child === undefined) await launch();
    },
    close() {
      closed ??= (async () => {
        await server.kill('SIGKILL');
        await rm(dir, { recursive: true, force: true });
      })();
      return closed;
    },
  };
  (options.register ?? onTestFinished)(() => server.close());
  return server;
}
