import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { Outbox } from './index.js';
import { range, records, replayAll } from '../../test/support/outbox/records.js';
import { tempDir } from '../../test/support/outbox/temp-dir.js';

async function bytesOnDisk(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir))
    if (name.endsWith('.seg')) total += (await stat(join(dir, name))).size;
  return total;
}

describe('outbox disk bound', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('drops the oldest segments past maxBytes, counts them, and warns once per interval', async () => {
    // Only timers and Date are faked: file I/O still completes on its own.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const dir = await tempDir();
    const warnings: { message: string; details: Record<string, unknown> }[] = [];
    // maxBytes 4096 caps segments at 1024 bytes: 25 records of 40 bytes each after the 16-byte header.
    const outbox = await Outbox.open({
      dir,
      maxBytes: 4096,
      onWarning: (message, details) => warnings.push({ message, details }),
    });
    await outbox.append(records(0, 100)); // exactly 4 full segments: 4,064 bytes
    expect(outbox.stats).toMatchObject({ segments: 4, droppedRecords: 0 });
    expect(warnings).toEqual([]);

    await outbox.append(records(100, 125));
    expect(outbox.stats).toMatchObject({ segments: 4, records: 100, droppedRecords: 25 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.details).toMatchObject({
      kind: 'disk-bound',
      droppedRecords: 25,
      droppedSegments: 1,
    });
    expect(warnings[0]!.message).toContain('25 unsent record(s)');
    expect(await bytesOnDisk(dir)).toBeLessThanOrEqual(4096);

    await outbox.append(records(125, 150));
    await outbox.append(records(150, 175));
    expect(outbox.stats.droppedRecords).toBe(75);
    expect(warnings).toHaveLength(1); // the next two drops wait for the interval
    expect(await bytesOnDisk(dir)).toBeLessThanOrEqual(4096);

    await vi.advanceTimersByTimeAsync(60_000);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]!.details).toMatchObject({
      kind: 'disk-bound',
      droppedRecords: 50,
      droppedSegments: 2,
      occurrences: 2,
    });

    // A quiet interval closes the window: the next drop is reported at once again.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(warnings).toHaveLength(2);
    await outbox.append(records(175, 200));
    expect(warnings).toHaveLength(3);
    expect(warnings[2]!.details).toMatchObject({ droppedRecords: 25, occurrences: 1 });

    // What is left is the newest records, in order.
    expect((await replayAll(outbox)).numbers).toEqual(range(100, 200));
    await outbox.close();
  });

  it('close reports drops still waiting for their interval', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const dir = await tempDir();
    const warnings: Record<string, unknown>[] = [];
    const outbox = await Outbox.open({
      dir,
      maxBytes: 4096,
      onWarning: (_m, details) => warnings.push(details),
    });
    for (let batch = 0; batch < 7; batch++) await outbox.append(records(batch * 25, batch * 25 + 25));
    expect(warnings).toHaveLength(1);
    await outbox.close();
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatchObject({ kind: 'disk-bound', droppedRecords: 50, occurrences: 2 });
  });

  it('a segment being replayed can be dropped for the bound without confusing the replay', async () => {
    const dir = await tempDir();
    const outbox = await Outbox.open({ dir, maxBytes: 4096 });
    onTestFinished(() => outbox.close());
    await outbox.append(records(0, 100)); // 4 full segments
    const seen: number[] = [];
    let filled = false;
    const result = await outbox.replay(
      async (batch) => {
        seen.push(...batch.map((bytes) => Buffer.from(bytes).readUInt32LE(0)));
        if (!filled) {
          filled = true;
          // Pushes out the two oldest segments, including the one being read.
          await outbox.append(records(1000, 1050));
        }
        return true;
      },
      { batchRecords: 10 },
    );
    // The append needed two segments of room: it dropped segment 1 (0-24) while its batch 0-9 was
    // in flight, and segment 2 (25-49). Replay noticed, went on with 50-99, then the new segment
    // that closed meanwhile. Records in flight when their segment was dropped count as dropped:
    // the count errs on the side of reporting a loss.
    expect(seen).toEqual([...range(0, 10), ...range(50, 100), ...range(1000, 1025)]);
    expect(outbox.stats.droppedRecords).toBe(50);
    expect(result.remaining).toBe(25);
  });
});
