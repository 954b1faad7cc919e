import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { tempDir } from '@weft/test-server';
import { expect, it, onTestFinished } from 'vitest';
import { startServerChild } from './support/server-child.js';

it('regression: startServerChild without dbPath wrote ./.weft/weft.db in the working folder; now it serves a temp folder removed on stop', async () => {
  // The child runs in a folder of the test's own, to see what it writes there.
  const workingDir = await tempDir();
  onTestFinished(() => rm(workingDir, { recursive: true, force: true }));
  const cleanups: (() => Promise<void>)[] = [];
  onTestFinished(async () => {
    for (const cleanup of cleanups) await cleanup();
  });
  const server = await startServerChild({
    wrap: ['sh', '-c', 'cd "$0" && exec "$@"', workingDir],
    register: (cleanup) => cleanups.push(cleanup),
  });
  expect((await fetch(`${server.url}/health`)).status).toBe(200);

  expect(await readdir(workingDir)).toEqual([]);
  const dbPath = server.dbPath as string;
  expect(existsSync(dbPath)).toBe(true);

  for (const cleanup of cleanups.splice(0)) await cleanup();
  expect(existsSync(dirname(dbPath))).toBe(false);
});
