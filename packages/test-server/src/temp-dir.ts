import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh, empty folder under the OS temp folder; the caller removes it
 * (the servers of this package remove theirs on `close()`).
 */
export async function tempDir(prefix = 'weft-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}
