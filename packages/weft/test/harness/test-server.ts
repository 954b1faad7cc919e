import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@weft/server';
import { onTestFinished } from 'vitest';

/** A real Weft server on 127.0.0.1 with its SQLite file in a temp folder. */
export interface TestServer {
  /** Base URL; the same across `restart()` (the port is kept). */
  readonly url: string;
  readonly port: number;
  /** The SQLite file. */
  readonly dbPath: string;
  /** The temp folder holding it, removed by `close()`. */
  readonly dir: string;
  readonly token: string | undefined;
  /** Stops the server (the data stays); `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** `stop()` then `start()`: the same data, the same port. */
  restart(): Promise<void>;
  /** Stops the server and deletes its folder. Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  /** Require this bearer token on /v1 routes. */
  token?: string;
  /**
   * Registers the cleanup. Defaults to vitest's `onTestFinished`, so call it
   * inside a test; from `beforeAll`, pass `afterAll`.
   */
  register?: (cleanup: () => Promise<void>) => void;
}

/** Starts a real server (see {@link TestServer}) and registers its cleanup. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'weft-test-server-'));
  const dbPath = join(dir, 'weft.db');
  const { token } = options;
  let running: RunningServer | undefined = await startServer({
    host: '127.0.0.1',
    port: 0,
    dbPath,
    token,
    uiDir: false,
  });
  const port = running.port;
  let closed: Promise<void> | undefined;

  const server: TestServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    dbPath,
    dir,
    token,
    async stop() {
      const current = running;
      running = undefined;
      await current?.close();
    },
    async start() {
      if (running) return;
      running = await startServer({ host: '127.0.0.1', port, dbPath, token, uiDir: false });
    },
    async restart() {
      await server.stop();
      await server.start();
    },
    close() {
      closed ??= (async () => {
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      })();
      return closed;
    },
  };
  (options.register ?? onTestFinished)(() => server.close());
  return server;
}
