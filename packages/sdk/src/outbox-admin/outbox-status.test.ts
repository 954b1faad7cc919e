import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Outbox } from '../outbox/index.js';
import { outboxStatus } from './outbox-status.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'weft-outbox-status-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const record = (n: number) => new Uint8Array(50).fill(n);
const quiet = { fsync: 'never', onWarning: () => {} } as const;

/** An outbox in `dir` holding `count` records over several small segments, closed again. */
async function fill(dir: string, count: number): Promise<void> {
  const outbox = await Outbox.open({ dir, segmentBytes: 256, ...quiet });
  try {
    for (let i = 0; i < count; i++) await outbox.append([record(i)]);
  } finally {
    await outbox.close();
  }
}

const segments = async (dir: string) => (await readdir(dir)).filter((name) => name.endsWith('.seg')).sort();

describe('outboxStatus', () => {
  it('counts each project folder and agrees with what Outbox.open finds', async () => {
    await fill(join(root, 'alpha'), 20);
    await fill(join(root, 'beta'), 3);

    const status = await outboxStatus({ dir: root });
    expect(status.map(({ project, records }) => ({ project, records }))).toEqual([
      { project: 'alpha', records: 20 },
      { project: 'beta', records: 3 },
    ]);
    const alpha = status[0]!;
    expect(alpha.segments).toBe((await segments(join(root, 'alpha'))).length);
    expect(alpha.segments).toBeGreaterThan(1);
    expect(alpha.lock).toEqual({ state: 'none' });
    expect(alpha.oldestSegmentAtMs).toBeLessThanOrEqual(alpha.newestSegmentAtMs!);

    const opened = await Outbox.open({ dir: join(root, 'alpha'), ...quiet });
    expect({
      records: opened.stats.records,
      bytes: opened.stats.bytes,
      segments: opened.stats.segments,
    }).toEqual({
      records: alpha.records,
      bytes: alpha.bytes,
      segments: alpha.segments,
    });
    await opened.close();
  });

  it('never changes the files: a torn tail is not counted and is left for open() to cut', async () => {
    const dir = join(root, 'torn');
    await fill(dir, 5);
    const newest = join(dir, (await segments(dir)).at(-1)!);
    await appendFile(newest, Buffer.from([200, 0, 0, 0, 1, 2])); // a record cut short by a crash
    const sizeBefore = (await stat(newest)).size;

    const [status] = await outboxStatus({ dir });
    expect(status).toMatchObject({ project: 'torn', records: 5 });
    expect((await stat(newest)).size).toBe(sizeBefore);
  });

  it('takes one outbox folder as dir, filters by project, and finds nothing in a missing folder', async () => {
    await fill(join(root, 'alpha'), 2);
    await fill(join(root, 'beta'), 1);
    expect((await outboxStatus({ dir: join(root, 'beta') })).map((s) => [s.project, s.records])).toEqual([
      ['beta', 1],
    ]);
    expect((await outboxStatus({ dir: root, project: 'alpha' })).map((s) => s.project)).toEqual(['alpha']);
    expect(await outboxStatus({ dir: root, project: 'gamma' })).toEqual([]);
    expect(await outboxStatus({ dir: join(root, 'missing') })).toEqual([]);
  });

  it('counts a foreign segment file as unreadable, not as records', async () => {
    const dir = join(root, 'foreign');
    await fill(dir, 2);
    await writeFile(join(dir, 'segment-9999999999999999.seg'), Buffer.alloc(64, 7));
    const [status] = await outboxStatus({ dir });
    expect(status).toMatchObject({ records: 2, unreadableSegments: 1 });
  });

  it('reports the lock: held by a live process, stale once its owner is gone, none without one', async () => {
    const dir = join(root, 'locked');
    const outbox = await Outbox.open({ dir, ...quiet });
    expect((await outboxStatus({ dir: root }))[0]!.lock).toMatchObject({ state: 'held', pid: process.pid });
    await outbox.close();
    expect((await outboxStatus({ dir: root }))[0]!.lock).toEqual({ state: 'none' });

    // A lock left by a process that has exited (a crash): its pid is dead.
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    const [exitCode] = await once(child, 'exit');
    expect(exitCode).toBe(0);
    const lock = { pid: child.pid, hostname: hostname(), token: 'x' };
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'outbox.lock'), JSON.stringify(lock));
    expect((await outboxStatus({ dir: root }))[0]!.lock).toEqual({ state: 'stale', pid: child.pid });

    // Another host's process cannot be checked, so it counts as holding the folder.
    await writeFile(join(dir, 'outbox.lock'), JSON.stringify({ ...lock, hostname: 'elsewhere.invalid' }));
    expect((await outboxStatus({ dir: root }))[0]!.lock).toEqual({
      state: 'held',
      pid: child.pid,
      hostname: 'elsewhere.invalid',
    });
  });

  it('names a bad option', async () => {
    await expect(outboxStatus({ dir: '' })).rejects.toMatchObject({
      code: 'WEFT_INVALID_OPTIONS',
      message: expect.stringContaining('`dir`'),
    });
  });
});
