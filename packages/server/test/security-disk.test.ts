import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { routes } from '@weft/protocol';
import { startTestServer, tempDir } from '@weft/test-server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { completeOf } from './support/calls.js';
import { get, post, send } from './support/http.js';
import { startServerChild } from './support/server-child.js';

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

describe('a full disk', () => {
  it('regression: answered 500 WEFT_INTERNAL; now 503 WEFT_STORAGE_FULL with Retry-After, and reads go on', async () => {
    const dir = await tempDir('weft-security-full-');
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const data = join(dir, 'data');
    await mkdir(data);
    // The server in a mount namespace of its own, its data folder a 2 MiB tmpfs: a real full disk, no root needed.
    const server = await startServerChild({
      options: { dbPath: join(data, 'weft.db') },
      wrap: [
        'unshare',
        '--map-root-user',
        '--mount',
        'sh',
        '-c',
        'mount -t tmpfs -o size=2m tmpfs "$0" && exec "$@"',
        data,
      ],
    });
    const upload = (i: number) =>
      send(server.url, routes.fileCreate('p'), {
        method: 'POST',
        body: Buffer.alloc(256 * 1024, i),
        headers: { 'content-type': 'application/octet-stream' },
      });
    const first = await upload(0);
    expect(first.status).toBe(200);
    let full = first;
    for (let i = 1; i < 40 && full.status === 200; i++) full = await upload(i);
    expect([full.status, full.body.error.code]).toEqual([503, 'WEFT_STORAGE_FULL']);
    expect(full.headers.get('retry-after')).toBe('30');
    expect(full.body.error.message).toContain('disk is full');
    expect((await get(server.url, routes.health())).status).toBe(200);
    expect((await get(server.url, routes.fileRead('p', first.body.digest))).status).toBe(200);
  });
});
