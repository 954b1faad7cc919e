import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Outbox } from './index.js';
import { writeFolderSync } from './write-on-exit.js';
import { records, replayAll } from '../../test/support/outbox/records.js';
import { tempDir } from '../../test/support/outbox/temp-dir.js';

// Issue 26 item 8: the outbox was created 0755 (folders) and 0644 (segments, lock), so any user of
// the machine could read the traced inputs and outputs it keeps.

async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

/** Every entry under `dir` (recursively) with its permission bits, by path relative to `dir`. */
async function modesUnder(dir: string): Promise<Record<string, string>> {
  const modes: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true })) {
    modes[entry] = (await modeOf(join(dir, entry))).toString(8);
  }
  return modes;
}

describe('Outbox files are owner-only', () => {
  it('creates its folder (and missing parents) 0700, and its segments and lock file 0600', async () => {
    const root = await tempDir();
    const dir = join(root, 'project', 'outbox');
    const outbox = await Outbox.open({ dir, segmentBytes: 1_024 });
    await outbox.append(records(0, 100));
    const whileOpen = await modesUnder(root);
    await outbox.close();

    expect(Object.keys(whileOpen).some((name) => name.endsWith('.lock'))).toBe(true);
    expect(Object.keys(whileOpen).filter((name) => name.endsWith('.seg')).length).toBeGreaterThan(1);
    for (const [name, mode] of Object.entries(whileOpen)) {
      const isFolder = name === 'project' || name === join('project', 'outbox');
      expect({ name, mode }).toEqual({ name, mode: isFolder ? '700' : '600' });
    }
  });

  it('writes a process-exit folder 0700 with its segment 0600', async () => {
    const root = await tempDir();
    const dir = join(root, 'proc-1-exit');
    writeFolderSync(dir, records(0, 10));
    expect(await modesUnder(root)).toEqual({
      'proc-1-exit': '700',
      [join('proc-1-exit', 'segment-0000000000000001.seg')]: '600',
    });
  });

  it('a damaged segment set aside keeps its owner-only mode', async () => {
    const root = await tempDir();
    const first = await Outbox.open({ dir: root, segmentBytes: 1_024 });
    await first.append(records(0, 100));
    await first.close();
    const [name] = (await readdir(root)).filter((entry) => entry.endsWith('.seg')).sort();
    const handle = await open(join(root, name!), 'r+');
    await handle.write(Buffer.alloc(64, 0xab), 0, 64, 100);
    await handle.close();

    const outbox = await Outbox.open({ dir: root, segmentBytes: 1_024, onWarning: () => {} });
    await replayAll(outbox);
    await outbox.close();
    expect(await modeOf(join(root, `${name!}.damaged`))).toBe(0o600);
  });
});
