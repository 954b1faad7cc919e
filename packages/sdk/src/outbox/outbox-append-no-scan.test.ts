import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { Outbox } from './index.js';
import { records } from '../../test/support/outbox/records.js';
import { tempDir } from '../../test/support/outbox/temp-dir.js';

const MiB = 1024 ** 2;

/**
 * Spies on every read method of Node's real `FileHandle` class (the default
 * file system of the outbox), so reads are counted whatever path makes them.
 */
async function spyOnFileHandleReads(dir: string): Promise<() => number> {
  const probe = await open(join(dir, 'probe'), 'w');
  const prototype = Object.getPrototypeOf(probe) as Record<string, unknown>;
  await probe.close();
  const methods = ['read', 'readv', 'readFile', 'readLines', 'createReadStream'] as const;
  const spies = methods
    .filter((name) => typeof prototype[name] === 'function')
    .map((name) => vi.spyOn(prototype as Record<string, (...args: unknown[]) => unknown>, name));
  onTestFinished(() => {
    for (const spy of spies) spy.mockRestore();
  });
  return () => spies.reduce((total, spy) => total + spy.mock.calls.length, 0);
}

/** Appends 10 batches of 100 small records; returns how many file reads that took. */
async function readsDuringAppends(outbox: Outbox, reads: () => number): Promise<number> {
  const before = reads();
  for (let batch = 0; batch < 10; batch++) await outbox.append(records(batch * 100, batch * 100 + 100));
  return reads() - before;
}

describe('outbox appends', () => {
  it('do not scan: appending to a 100 MB segment reads the file as often as appending to an empty one (never)', async () => {
    const options = { segmentBytes: 256 * MiB, maxBytes: 2048 * MiB } as const;
    const bigDir = await tempDir();
    const filler = await Outbox.open({ dir: bigDir, ...options, fsync: 'never' });
    const payload = new Uint8Array(MiB).fill(42);
    for (let i = 0; i < 100; i++) await filler.append([payload]);
    await filler.close();

    const reads = await spyOnFileHandleReads(bigDir);
    const big = await Outbox.open({ dir: bigDir, ...options });
    onTestFinished(() => big.close());
    // Sanity check of the spy: open() does read the segment once, to count its records.
    expect(reads()).toBeGreaterThan(0);
    expect(big.stats).toMatchObject({ segments: 1, records: 100 });
    expect(big.stats.bytes).toBeGreaterThan(100 * MiB);

    const emptyDir = await tempDir();
    const empty = await Outbox.open({ dir: emptyDir, ...options });
    onTestFinished(() => empty.close());

    const readsOnBig = await readsDuringAppends(big, reads);
    const readsOnEmpty = await readsDuringAppends(empty, reads);
    expect(readsOnBig).toBe(0);
    expect(readsOnEmpty).toBe(0);
    // The appends did land in the 100 MB segment, not in a new one.
    expect(big.stats).toMatchObject({ segments: 1, records: 1100 });
  });
});
