import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Outbox } from './index.js';
import { LOCK_FILE_NAME } from './lock-file.js';
import { range, records, replayAll } from '../../test/support/outbox/records.js';
import { tempDir } from '../../test/support/outbox/temp-dir.js';

/** The pid of a process that has exited (and been reaped), so nothing answers to it. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

function lockContent(pid: number, host = hostname(), processStartedAtMs?: number): string {
  return `${JSON.stringify({ pid, hostname: host, token: 'someone-else', processStartedAtMs })}\n`;
}

const thisProcessStartedAtMs = () => Math.round(Date.now() - process.uptime() * 1000);

describe('outbox lock', () => {
  it('refuses a second open of a folder whose outbox is open, and allows it after close', async () => {
    const dir = await tempDir();
    const first = await Outbox.open({ dir });
    await expect(Outbox.open({ dir })).rejects.toMatchObject({
      code: 'WEFT_OUTBOX_LOCKED',
      ownerPid: process.pid,
    });
    // Writes a pid that a person can check.
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE_NAME), 'utf8'))).toMatchObject({ pid: process.pid });
    await first.close();
    expect(await readdir(dir)).not.toContain(LOCK_FILE_NAME);
    const second = await Outbox.open({ dir });
    await second.close();
  });

  it('a second path to the same folder (a symlink) meets the same lock', async () => {
    const dir = await tempDir();
    const link = join(await tempDir(), 'link');
    await symlink(dir, link);
    const first = await Outbox.open({ dir });
    await expect(Outbox.open({ dir: link })).rejects.toMatchObject({ code: 'WEFT_OUTBOX_LOCKED' });
    await first.close();
  });

  it('two concurrent opens in one process: exactly one wins', async () => {
    const dir = await tempDir();
    const results = await Promise.allSettled([Outbox.open({ dir }), Outbox.open({ dir })]);
    const opened = results.filter((r) => r.status === 'fulfilled');
    expect(opened).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { code: 'WEFT_OUTBOX_LOCKED' },
    });
    await (opened[0] as PromiseFulfilledResult<Outbox>).value.close();
  });

  it('refuses a folder locked by another live process', async () => {
    const dir = await tempDir();
    // The test runner's parent process is alive for the whole test.
    await writeFile(join(dir, LOCK_FILE_NAME), lockContent(process.ppid));
    await expect(Outbox.open({ dir })).rejects.toMatchObject({
      code: 'WEFT_OUTBOX_LOCKED',
      ownerPid: process.ppid,
    });
  });

  it('refuses a lock held by another thread of this process (same pid, same start time)', async () => {
    const dir = await tempDir();
    await writeFile(
      join(dir, LOCK_FILE_NAME),
      lockContent(process.pid, hostname(), thisProcessStartedAtMs()),
    );
    await expect(Outbox.open({ dir })).rejects.toMatchObject({
      code: 'WEFT_OUTBOX_LOCKED',
      ownerPid: process.pid,
    });
  });

  it('refuses a lock from another host (it cannot tell whether that owner lives)', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, LOCK_FILE_NAME), lockContent(1, `not-${hostname()}`));
    await expect(Outbox.open({ dir })).rejects.toMatchObject({ code: 'WEFT_OUTBOX_LOCKED' });
  });

  it.each([
    ['a dead pid', async () => lockContent(await deadPid())],
    // pid 1 in a restarted container: our own pid, started a minute before this process.
    [
      'our own pid from an earlier life',
      async () => lockContent(process.pid, hostname(), thisProcessStartedAtMs() - 60_000),
    ],
  ])('replaces a stale lock left by %s and keeps its records', async (_name, content) => {
    const dir = await tempDir();
    const writer = await Outbox.open({ dir });
    await writer.append(records(0, 5));
    await writer.close();
    await writeFile(join(dir, LOCK_FILE_NAME), await content());

    const outbox = await Outbox.open({ dir });
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE_NAME), 'utf8'))).toMatchObject({ pid: process.pid });
    expect((await replayAll(outbox)).numbers).toEqual(range(0, 5));
    await outbox.close();
  });

  it('treats an unreadable lock as being written unless it is old', async () => {
    const dir = await tempDir();
    const path = join(dir, LOCK_FILE_NAME);
    await writeFile(path, '');
    await expect(Outbox.open({ dir })).rejects.toMatchObject({ code: 'WEFT_OUTBOX_LOCKED' });
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await utimes(path, aMinuteAgo, aMinuteAgo);
    const outbox = await Outbox.open({ dir });
    await outbox.close();
  });
});
