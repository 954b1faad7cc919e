import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { Outbox, type OutboxOptions } from './index.js';
import { encodeFrames } from './record-frame.js';
import { range, record, recordNumber, records, replayAll } from '../../test/support/outbox/records.js';
import { tempDir } from '../../test/support/outbox/temp-dir.js';

/** Opens an outbox and closes it when the test ends. */
async function openOutbox(options: OutboxOptions): Promise<Outbox> {
  const outbox = await Outbox.open(options);
  onTestFinished(() => outbox.close());
  return outbox;
}

async function segmentFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.seg')).sort();
}

/** Each record of `record(n)` is 32 payload bytes + 8 frame bytes; 25 fit a 1,024-byte segment after its 16-byte header. */
const SMALL_SEGMENTS = { segmentBytes: 1024 } as const;

describe('Outbox', () => {
  it('round trip: appended batches survive a reopen, replay in order, and acked segments are deleted', async () => {
    const dir = await tempDir();
    const first = await Outbox.open({ dir, ...SMALL_SEGMENTS });
    await Promise.all(range(0, 20).map((batch) => first.append(records(batch * 50, batch * 50 + 50))));
    expect(first.stats).toMatchObject({ records: 1000, segments: 40, pendingRecords: 0 });
    await first.close();

    const names = await segmentFiles(dir);
    expect(names).toHaveLength(40);
    expect(names[0]).toBe('segment-0000000000000001.seg');
    expect(names.at(-1)).toBe('segment-0000000000000040.seg');
    const header = await readFile(join(dir, names[0]!));
    expect(header.subarray(0, 8).toString('latin1')).toBe('WEFTOBOX');

    const outbox = await openOutbox({ dir, ...SMALL_SEGMENTS });
    expect(outbox.stats).toMatchObject({ records: 1000, segments: 40 });
    const { numbers, result } = await replayAll(outbox, 100);
    expect(numbers).toEqual(range(0, 1000));
    expect(result).toEqual({ sent: 1000, remaining: 0 });
    expect(await segmentFiles(dir)).toEqual([]);
    expect(outbox.stats).toMatchObject({ records: 0, segments: 0, bytes: 0 });
  });

  it.each([
    ['half a record', encodeFrames([record(10)], 0, 1).subarray(0, 20)],
    ['a length pointing past the end', Buffer.from([0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4, 5])],
    ['a zero-filled tail', Buffer.alloc(4096)],
    ['a whole frame with a bad checksum', Buffer.from(encodeFrames([record(10)], 0, 1)).fill(7, 8, 9)],
  ])('truncates a torn trailing record once on open (%s)', async (_name, garbage) => {
    const dir = await tempDir();
    const writer = await Outbox.open({ dir });
    await writer.append(records(0, 10));
    await writer.close();
    const [name] = await segmentFiles(dir);
    const path = join(dir, name!);
    const goodBytes = (await stat(path)).size;
    await writeFile(path, garbage, { flag: 'a' });

    const warnings: Record<string, unknown>[] = [];
    const onWarning = (_message: string, details: Record<string, unknown>) => warnings.push(details);
    const reopened = await Outbox.open({ dir, onWarning });
    expect(warnings).toEqual([
      expect.objectContaining({ kind: 'torn-tail', offset: goodBytes, bytesRemoved: garbage.byteLength }),
    ]);
    expect((await stat(path)).size).toBe(goodBytes);
    expect(reopened.stats.records).toBe(10);
    await reopened.close();

    // A second open finds nothing to cut.
    warnings.length = 0;
    const again = await openOutbox({ dir, onWarning });
    expect(warnings).toEqual([]);
    expect((await stat(path)).size).toBe(goodBytes);
    // Appends land right after the last good record.
    await again.append(records(10, 20));
    expect((await replayAll(again)).numbers).toEqual(range(0, 20));
  });

  it('leaves a segment of a newer format version alone: neither replayed nor deleted', async () => {
    const dir = await tempDir();
    const writer = await Outbox.open({ dir });
    await writer.append(records(0, 5));
    await writer.close();
    const future = Buffer.concat([Buffer.from('WEFTOBOX', 'latin1'), Buffer.from([2, 0, 0, 0, 0, 0, 0, 0])]);
    const futurePath = join(dir, 'segment-0000000000000007.seg');
    await writeFile(futurePath, Buffer.concat([future, Buffer.alloc(100, 1)]));

    const warnings: Record<string, unknown>[] = [];
    const outbox = await openOutbox({ dir, onWarning: (_message, details) => warnings.push(details) });
    expect(warnings).toEqual([expect.objectContaining({ kind: 'unreadable-segment', path: futurePath })]);
    await outbox.append(records(5, 10));
    expect((await replayAll(outbox)).numbers).toEqual(range(0, 10));
    // New segments are numbered after it, and it is still there, untouched.
    expect(await segmentFiles(dir)).toEqual(['segment-0000000000000007.seg']);
    expect((await stat(futurePath)).size).toBe(116);
    await outbox.append(records(10, 11));
    // (8 held records 5-9 and went with the replay.)
    expect(await segmentFiles(dir)).toEqual(['segment-0000000000000007.seg', 'segment-0000000000000009.seg']);
  });

  it('replay stops at the first unacknowledged batch and resumes later without losing or reordering', async () => {
    const dir = await tempDir();
    const outbox = await openOutbox({ dir, ...SMALL_SEGMENTS });
    await outbox.append(records(0, 100)); // 4 segments of 25

    const seen: number[][] = [];
    let calls = 0;
    const first = await outbox.replay(
      async (batch) => {
        seen.push(batch.map(recordNumber));
        return ++calls <= 3;
      },
      { batchRecords: 10 },
    );
    // Batches never mix segments: 0-9, 10-19, 20-24 acked, then 25-34 refused.
    expect(seen).toEqual([range(0, 10), range(10, 20), range(20, 25), range(25, 35)]);
    expect(first).toEqual({ sent: 25, remaining: 75 });
    expect(await segmentFiles(dir)).toHaveLength(3);

    // A send that throws stops the replay too, and the error is reported.
    seen.length = 0;
    const failure = new Error('server went away');
    calls = 0;
    const second = await outbox.replay(
      async (batch) => {
        seen.push(batch.map(recordNumber));
        if (++calls === 2) throw failure;
        return true;
      },
      { batchRecords: 10 },
    );
    expect(seen).toEqual([range(25, 35), range(35, 45)]);
    expect(second).toEqual({ sent: 10, remaining: 65, error: failure });
    // Segment 2 (records 25-49) is partly acked: its file stays.
    expect(await segmentFiles(dir)).toHaveLength(3);

    // In this process a later replay resumes after the last acked record.
    const resumed = await replayAll(outbox, 10);
    expect(resumed.numbers).toEqual(range(35, 100));
    expect(resumed.result).toEqual({ sent: 65, remaining: 0 });
    expect(await segmentFiles(dir)).toEqual([]);
  });

  it('progress: records written (and found at open) and settled by replay or the disk bound, in order', async () => {
    const dir = await tempDir();
    const first = await Outbox.open({ dir, ...SMALL_SEGMENTS });
    await first.append(records(0, 30));
    expect(first.progress).toEqual({ written: 30, settled: 0 });
    await first.close();
    // Found at open: counted as written, nothing settled yet.
    const outbox = await openOutbox({ dir, ...SMALL_SEGMENTS, maxBytes: 4 * 1024 });
    expect(outbox.progress).toEqual({ written: 30, settled: 0 });
    let calls = 0;
    await outbox.replay(async () => ++calls <= 1, { batchRecords: 10 });
    expect(outbox.progress).toEqual({ written: 30, settled: 10 });
    // Past maxBytes the oldest segments go: their unacknowledged records are settled (dropped) too.
    await outbox.append(records(30, 120));
    expect(outbox.progress.written).toBe(120);
    expect(outbox.progress.settled).toBe(outbox.progress.written - outbox.stats.records);
    expect(outbox.stats.droppedRecords).toBeGreaterThan(0);
    await replayAll(outbox);
    expect(outbox.progress).toEqual({ written: 120, settled: 120 });
  });

  it('writeOnExit writes synchronously what is appended and not yet written, then the extra records, in a segment of its own', async () => {
    const dir = await tempDir();
    const writer = await Outbox.open({ dir, ...SMALL_SEGMENTS });
    await writer.append(records(0, 10));
    // Appended on this turn: its write round has not run yet (nor will it, at a process exit).
    void writer.append(records(10, 20)).catch(() => undefined);
    expect(writer.writeOnExit(records(20, 25))).toBe(15);
    expect(writer.writeOnExit()).toBe(0);
    await writer.close();
    const reader = await openOutbox({ dir });
    const { numbers } = await replayAll(reader);
    expect(numbers).toEqual(range(0, 25));
  });

  it('after a restart, a partly acknowledged segment is sent again from its start', async () => {
    const dir = await tempDir();
    const outbox = await Outbox.open({ dir, ...SMALL_SEGMENTS });
    await outbox.append(records(0, 50));
    let calls = 0;
    await outbox.replay(async () => ++calls <= 3, { batchRecords: 10 }); // acks 0-24, then 25-34
    await outbox.close();

    const reopened = await openOutbox({ dir, ...SMALL_SEGMENTS });
    expect(reopened.stats.records).toBe(25);
    expect((await replayAll(reopened)).numbers).toEqual(range(25, 50));
  });

  it('deletes a segment only when every record in it was acknowledged', async () => {
    const dir = await tempDir();
    const outbox = await openOutbox({ dir, ...SMALL_SEGMENTS });
    await outbox.append(records(0, 50)); // segments of 0-24 and 25-49
    const [oldest] = await segmentFiles(dir);

    let acks = 24;
    await outbox.replay(async () => acks-- > 0, { batchRecords: 1 });
    expect(await segmentFiles(dir)).toContain(oldest);
    expect(outbox.stats.records).toBe(26);

    acks = 1;
    await outbox.replay(async () => acks-- > 0, { batchRecords: 1 });
    expect(await segmentFiles(dir)).not.toContain(oldest);
    expect(outbox.stats).toMatchObject({ records: 25, segments: 1 });
  });

  it('keeps records appended during a replay for the next one', async () => {
    const dir = await tempDir();
    const outbox = await openOutbox({ dir, ...SMALL_SEGMENTS });
    await outbox.append(records(0, 60));

    const seen: number[] = [];
    let appended = false;
    const result = await outbox.replay(
      async (batch) => {
        seen.push(...batch.map(recordNumber));
        if (!appended) {
          appended = true;
          await outbox.append(records(1000, 1040)); // lands in a new segment the replay does not touch
        }
        return true;
      },
      { batchRecords: 10 },
    );
    // The new records' first segment filled up (25 records) and closed during the replay, so it was
    // sent too; the segment still being written was not touched.
    expect(seen).toEqual([...range(0, 60), ...range(1000, 1025)]);
    expect(result).toEqual({ sent: 85, remaining: 15 });
    expect((await replayAll(outbox)).numbers).toEqual(range(1025, 1040));
  });

  it('a second replay call joins the running one', async () => {
    const dir = await tempDir();
    const outbox = await openOutbox({ dir });
    await outbox.append(records(0, 5));
    let release!: (ack: boolean) => void;
    const firstSend = vi.fn(() => new Promise<boolean>((resolve) => (release = resolve)));
    const secondSend = vi.fn(async () => true);

    const first = outbox.replay(firstSend);
    const second = outbox.replay(secondSend);
    expect(second).toBe(first);
    await vi.waitFor(() => expect(firstSend).toHaveBeenCalledTimes(1));
    release(true);
    expect(await second).toEqual({ sent: 5, remaining: 0 });
    expect(secondSend).not.toHaveBeenCalled();
  });

  it('close waits for queued appends, is idempotent, and refuses later work', async () => {
    const dir = await tempDir();
    const outbox = await Outbox.open({ dir });
    const appended = outbox.append(records(0, 10));
    const closing = outbox.close();
    expect(outbox.close()).toBe(closing);
    await closing;
    await appended;
    await expect(outbox.append(records(10, 11))).rejects.toMatchObject({ code: 'WEFT_OUTBOX_CLOSED' });
    await expect(outbox.replay(async () => true)).rejects.toMatchObject({ code: 'WEFT_OUTBOX_CLOSED' });

    const reopened = await openOutbox({ dir });
    expect((await replayAll(reopened)).numbers).toEqual(range(0, 10));
  });

  it('refuses records that are not bytes or too large, and writes the others of the batch', async () => {
    const dir = await tempDir();
    const outbox = await openOutbox({ dir, maxBytes: 4096 });
    const batch = [record(0), new Uint8Array(5000), record(1), 'text' as unknown as Uint8Array, record(2)];
    await expect(outbox.append(batch)).rejects.toMatchObject({
      code: 'WEFT_OUTBOX_INVALID_RECORD',
      indexes: [1, 3],
    });
    expect((await replayAll(outbox)).numbers).toEqual([0, 1, 2]);
  });

  it('stores a record given as parts exactly as their concatenation, checksum included', async () => {
    const dir = await tempDir();
    const writer = await Outbox.open({ dir, maxBytes: 4096 });
    const split = (bytes: Uint8Array) => [bytes.subarray(0, 3), bytes.subarray(3, 3), bytes.subarray(3)];
    await writer.append([split(record(0)), record(1), split(record(2, 200))]);
    await expect(
      writer.append([
        [record(3), new Uint8Array(5000)],
        [record(4), 'x' as unknown as Uint8Array],
      ]),
    ).rejects.toMatchObject({
      code: 'WEFT_OUTBOX_INVALID_RECORD',
      indexes: [0, 1],
    });
    expect(writer.stats).toMatchObject({ records: 3 });
    await writer.close();
    // Reopening checks every frame's checksum: a wrong one would be cut off as a torn tail.
    const reader = await openOutbox({ dir });
    expect((await replayAll(reader)).numbers).toEqual([0, 1, 2]);
  });

  it('an empty append resolves once everything before it is written', async () => {
    const dir = await tempDir();
    const outbox = await openOutbox({ dir });
    const appended = outbox.append(records(0, 3));
    // Nothing is written on the caller's turn: the records wait for the writer.
    expect(outbox.stats).toMatchObject({ records: 0, pendingRecords: 3, pendingBytes: 3 * 32 });
    await outbox.append([]);
    await appended;
    expect(outbox.stats).toMatchObject({ records: 3, pendingRecords: 0 });
  });

  it('a throwing onWarning does not break the write that reported the warning', async () => {
    const dir = await tempDir();
    const onWarning = vi.fn(() => {
      throw new Error('bad handler');
    });
    const outbox = await openOutbox({ dir, maxBytes: 4096, onWarning });
    for (let batch = 0; batch < 6; batch++) await outbox.append(records(batch * 25, batch * 25 + 25));
    expect(onWarning).toHaveBeenCalledTimes(1);
    expect(outbox.stats.droppedRecords).toBeGreaterThan(0);
    expect((await replayAll(outbox)).numbers).toEqual(range(50, 150));
  });

  it.each([
    [{ maxBytes: -1 }, 'maxBytes'],
    [{ segmentBytes: 1.5 }, 'segmentBytes'],
    [{ fsync: 'always' }, 'fsync'],
    [{ onWarning: 'loud' }, 'onWarning'],
    [{ maxbytes: 10 }, 'maxbytes'],
    [{ dir: '' }, 'dir'],
  ])('validates options and names the bad one (%o)', async (bad, path) => {
    const dir = await tempDir();
    const error = await Outbox.open({ dir, ...bad } as unknown as OutboxOptions).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'WEFT_INVALID_OPTIONS', path });
    expect((error as Error).message).toMatch(new RegExp(`^Invalid outbox options: .*\`${path}\``));
  });

  it('a folder that cannot be created gives a typed error naming it', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a-file'), '');
    const error = await Outbox.open({ dir: join(dir, 'a-file', 'outbox') }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'WEFT_OUTBOX_OPEN_FAILED', systemCode: 'ENOTDIR' });
  });

  it('validates replay options', async () => {
    const dir = await tempDir();
    const outbox = await openOutbox({ dir });
    await expect(outbox.replay(async () => true, { batchRecords: 0 })).rejects.toMatchObject({
      code: 'WEFT_INVALID_OPTIONS',
      path: 'batchRecords',
    });
  });
});
