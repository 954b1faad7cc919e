import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { type RunningServer, type ServerOptions, startServer } from '../../src/index.js';
import { freshTestStorageUrl } from './test-storage.js';

/** A fresh temp folder; the caller removes it. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'weft-server-test-'));
  return dir;
}

export interface TestServer extends RunningServer {
  dbPath: string;
  dir: string;
}

/**
 * Starts a real server on 127.0.0.1:0 with a SQLite file in a temp folder,
 * or, in the `server-clickhouse` project, a fresh ClickHouse database (the
 * storage is the suite's parameter: see `test-storage.ts`).
 * The caller registers cleanup right away: `afterAll(() => server.dispose())`
 * or, inside a test, use {@link startTestServerForTest}.
 */
export async function startTestServer(
  options: ServerOptions = {},
): Promise<TestServer & { dispose(): Promise<void> }> {
  const dir = options.dbPath ? '' : await tempDir();
  const dbPath = options.dbPath ?? join(dir, 'weft.db');
  const storage = options.storage ?? (options.dbPath ? undefined : freshTestStorageUrl());
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    uiDir: false,
    ...options,
    dbPath,
    ...(storage === undefined ? {} : { storage }),
  });
  return {
    ...server,
    dbPath,
    dir,
    async dispose() {
      await server.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** {@link startTestServer} whose disposal is registered with the current test. */
export async function startTestServerForTest(options: ServerOptions = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  onTestFinished(() => server.dispose());
  return server;
}
