import type { Browser } from 'playwright-core';
import { init, type WeftClient } from '@weft/sdk';
import { startTestServer, type TestServer, type TestServerOptions } from '@weft/test-server';
import { builtUiDir, launchBrowser } from './browser.js';

/**
 * What a browser test of the UI runs against: the real server serving the
 * built UI, and what the test adds to it (a Weft client recording into it,
 * chromium, fakes), each closed by {@link close} in reverse order of
 * creation. Start it in `beforeAll`, close it in `afterAll`.
 */
export interface UiTestBed {
  readonly server: TestServer;
  /** Registers a cleanup for {@link close}. */
  defer(cleanup: () => Promise<unknown>): void;
  /** A Weft client recording into `project` on this server, sending at once (shut down by {@link close}). */
  client(project: string): WeftClient;
  /** Launches chromium (see `launchBrowser`), closed by {@link close}. */
  browser(options?: { args?: string[] }): Promise<Browser>;
  /** Runs every cleanup, the newest first (the server last). */
  close(): Promise<void>;
}

/** Starts the server of a UI test: {@link TestServerOptions} but the UI folder, always the built UI. */
export async function startUiTestBed(
  options: Omit<TestServerOptions, 'uiDir' | 'register'> = {},
): Promise<UiTestBed> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const server = await startTestServer({
    ...options,
    uiDir: builtUiDir(),
    register: (c) => cleanups.push(c),
  });
  return {
    server,
    defer: (cleanup) => cleanups.push(cleanup),
    client(project) {
      const client = init({ project, url: server.url, outbox: false, handleExit: false, startDelayMs: 0 });
      cleanups.push(() => client.shutdown());
      return client;
    },
    async browser(browserOptions) {
      const browser = await launchBrowser(browserOptions);
      cleanups.push(() => browser.close());
      return browser;
    },
    async close() {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    },
  };
}
