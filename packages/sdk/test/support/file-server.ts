import { startTestServer, type TestServer } from '@weft/test-server';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { resetWeft } from '../../src/testing/index.js';

/** The server a test file shares (see {@link useFileServer}). */
export interface FileServer {
  /** The server's base URL (once started: inside a test or hook). */
  readonly url: string;
  /** Stops and starts the server on the same port and data (see `TestServer.restart`). */
  restart(): Promise<void>;
  /** Runs `cleanup` when the file's tests are done, before the server stops. */
  onStop(cleanup: () => Promise<void>): void;
}

/**
 * A real Weft server shared by a test file's tests: started before them and
 * stopped after them, with every cleanup given to `onStop` run first (last
 * given first: a proxy in front of the server closes before it); the SDK is
 * reset after each test. Call it at the top level of the file.
 */
export function useFileServer(): FileServer {
  let server: TestServer | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    server = await startTestServer({ register: (cleanup) => cleanups.push(cleanup) });
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  afterEach(async () => {
    await resetWeft();
  });
  const started = (): TestServer => {
    if (server === undefined)
      throw new Error('useFileServer: the server starts in beforeAll; use it in a test or hook');
    return server;
  };
  return {
    get url() {
      return started().url;
    },
    restart: () => started().restart(),
    onStop: (cleanup) => {
      cleanups.push(cleanup);
    },
  };
}
