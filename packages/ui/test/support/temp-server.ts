import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@weft/server';
import { UI_DIR } from './browser.js';

/**
 * The real server on 127.0.0.1:0 with a fresh SQLite file, serving the built
 * UI; closed and deleted when the calling test (or hook) finishes.
 */
export async function startTempServer(
  register: (cleanup: () => Promise<void>) => void,
  token?: string,
): Promise<RunningServer> {
  if (!existsSync(join(UI_DIR, 'index.html'))) {
    throw new Error(
      `No built UI at ${UI_DIR}: run \`npm run build\` (or \`npx vite build\` in packages/ui) first.`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'weft-ui-'));
  register(() => rm(dir, { recursive: true, force: true }));
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dbPath: join(dir, 'weft.db'),
    uiDir: UI_DIR,
    ...(token ? { token } : {}),
  });
  register(() => server.close());
  return server;
}
