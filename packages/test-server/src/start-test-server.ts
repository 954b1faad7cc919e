import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type RunningServer, type ServerOptions, startServer } from '@weft/server';
import { type RegisterCleanup, registerCleanup } from './register-cleanup.js';
import { tempDir } from './temp-dir.js';

/** A real Weft server running in the test's own process on 127.0.0.1. */
export interface TestServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`; the same across `restart()` (the port is kept). */
  readonly url: string;
  readonly port: number;
  /** The SQLite file (unused when `storage` names another engine). */
  readonly dbPath: string;
  /** The temp folder made for this server, removed by `close()`. */
  readonly dir: string;
  /** The admin bearer token the server requires, if any. */
  readonly token: string | undefined;
  /** Stops the server; the data stays and `start()` brings it back on the same port. */
  stop(): Promise<void>;
  /** Starts a stopped server again with the same options, data and port; a no-op while running. */
  start(): Promise<void>;
  /** `stop()` then `start()`: the same data, the same port. */
  restart(): Promise<void>;
  /** Stops the server and deletes its temp folder. Idempotent: later calls join the first. */
  close(): Promise<void>;
}

/**
 * Options of {@link startTestServer}: every option of `startServer` except
 * the address (always 127.0.0.1 on a free port), plus where to register the
 * cleanup.
 */
export interface TestServerOptions extends Omit<ServerOptions, 'host' | 'port'> {
  /**
   * SQLite file; its folder must exist.
   * @default `weft.db` in a fresh temp folder
   */
  dbPath?: string;
  /**
   * Serve the web UI from this folder, or `false` for none.
   * @default false (tests of the API do not need the UI build)
   */
  uiDir?: ServerOptions['uiDir'];
  /**
   * Registers `close()`: vitest's `onTestFinished` (so call it inside a test),
   * `afterAll` from `beforeAll`, or `false` to close it yourself.
   * @default onTestFinished
   */
  register?: RegisterCleanup;
}

/**
 * Starts the real Weft server (`startServer` of `@weft/server`) in this
 * process on 127.0.0.1, port 0, with its SQLite file in a fresh temp folder
 * (or the engine `storage` names, e.g. a ClickHouse database), and registers
 * its cleanup. The one in-process test server of the repo: for a separate
 * process a test can SIGKILL, see `startServerProcess`.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { register, ...serverOptions } = options;
  const dir = await tempDir('weft-test-server-');
  const dbPath = serverOptions.dbPath ?? join(dir, 'weft.db');
  const launch = (port: number) =>
    startServer({ uiDir: false, ...serverOptions, host: '127.0.0.1', port, dbPath });
  let running: RunningServer | undefined;
  try {
    running = await launch(0);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const port = running.port;
  let closed: Promise<void> | undefined;

  const server: TestServer = {
    url: running.url,
    port,
    dbPath,
    dir,
    token: serverOptions.token,
    async stop() {
      const current = running;
      running = undefined;
      await current?.close();
    },
    async start() {
      if (running === undefined) running = await launch(port);
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
  registerCleanup(register, () => server.close());
  return server;
}
