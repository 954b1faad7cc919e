import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A fresh temp folder, removed when the current test finishes. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'weft-outbox-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
