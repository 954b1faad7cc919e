import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { routes } from '@weft/protocol';
import { startTestServer, tempDir } from '@weft/test-server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { completeOf } from './support/calls.js';
import { post } from './support/http.js';

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('what the server writes to disk', () => {
  it('regression: creates the database folder 0700 and every database file 0600 (they were 0755 and 0644)', async () => {
    const dir = await tempDir('weft-security-disk-');
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const data = join(dir, 'data', 'nested');
    const server = await startTestServer({ dbPath: join(data, 'weft.db') });
    onTestFinished(() => server.close());
    // A write, so the WAL and its index exist.
    expect(
      (await post(server.url, routes.callBatch(), { project: 'p', items: [completeOf(1)] })).status,
    ).toBe(200);

    expect(await mode(join(dir, 'data'))).toBe(0o700);
    expect(await mode(data)).toBe(0o700);
    const files = (await readdir(data)).sort();
    expect(files).toEqual(['weft.db', 'weft.db-shm', 'weft.db-wal']);
    for (const file of files) expect([file, await mode(join(data, file))]).toEqual([file, 0o600]);
  });
});
