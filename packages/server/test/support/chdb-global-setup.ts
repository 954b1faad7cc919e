import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
// @ts-expect-error: a plain script of the repo (no types), shared with .ci/run
import { installChdb } from '../../../../scripts/install-chdb.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder under which each test process keeps its chDB data (chDB binds one folder per process). */
    chdbRoot: string;
  }
}

/**
 * The `server-chdb` run: installs chDB when missing (the quick start never
 * downloads its 550 MB; see scripts/install-chdb.mjs) and makes the folder
 * the test processes keep their chDB data in, removed at the end. Fails
 * (never skips) when chDB cannot be installed.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  installChdb();
  const root = await mkdtemp(join(tmpdir(), 'weft-chdb-'));
  project.provide('chdbRoot', root);
  return () => rm(root, { recursive: true, force: true });
}
