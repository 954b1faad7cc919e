import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { Outbox, type OutboxWriteFailedError } from './index.js';
import { InstrumentedFileSystem } from '../../test/support/outbox/instrumented-file-system.js';
import { range, records, replayAll } from '../../test/support/outbox/records.js';
import { tempDir } from '../../test/support/outbox/temp-dir.js';

/** Reopens `dir` on the real file system and replays everything, collecting warnings. */
async function reopenAndReplay(
  dir: string,
): Promise<{ numbers: number[]; warnings: Record<string, unknown>[] }> {
  const warnings: Record<string, unknown>[] = [];
  const outbox = await Outbox.open({ dir, onWarning: (_message, details) => warnings.push(details) });
  const { numbers } = await replayAll(outbox);
  await outbox.close();
  return { numbers, warnings };
}

describe('outbox on a full disk', () => {
  it('rejects the append with WEFT_OUTBOX_WRITE_FAILED, keeps earlier records, and works again when space returns', async () => {
    const dir = await tempDir();
    const fileSystem = new InstrumentedFileSystem();
    const warnings: Record<string, unknown>[] = [];
    const outbox = await Outbox.open({
      dir,
      fileSystem,
      onWarning: (_message, details) => warnings.push(details),
    });
    await outbox.append(records(0, 20));

    // Room for half a batch: the write is short, then ENOSPC; the torn half must be cut away.
    fileSystem.spaceLeftBytes = 300;
    const error = (await outbox.append(records(20, 40)).catch((e: unknown) => e)) as OutboxWriteFailedError;
    expect(error).toMatchObject({
      code: 'WEFT_OUTBOX_WRITE_FAILED',
      recordsWritten: 0,
      recordsNotWritten: 20,
      systemCode: 'ENOSPC',
    });
    expect(fileSystem.calls.truncate).toBe(1);
    await expect(outbox.append(records(40, 45))).rejects.toMatchObject({ code: 'WEFT_OUTBOX_WRITE_FAILED' });
    expect(outbox.stats).toMatchObject({ records: 20, writeFailures: 2 });
    // Rate-limited: the second failure waits for the interval (or close).
    expect(warnings).toEqual([
      expect.objectContaining({ kind: 'write-failed', code: 'ENOSPC', recordsNotWritten: 20 }),
    ]);

    fileSystem.spaceLeftBytes = Number.POSITIVE_INFINITY;
    await outbox.append(records(45, 60));
    await outbox.close();
    expect(warnings).toHaveLength(2); // close flushed the summary of the second failure
    expect(warnings[1]).toMatchObject({ kind: 'write-failed', recordsNotWritten: 5 });

    const reopened = await reopenAndReplay(dir);
    expect(reopened.numbers).toEqual([...range(0, 20), ...range(45, 60)]);
    expect(reopened.warnings).toEqual([]); // no torn tail: the failed write left nothing behind
  });

  it('a batch spanning segments reports the prefix it did write', async () => {
    const dir = await tempDir();
    const fileSystem = new InstrumentedFileSystem();
    const outbox = await Outbox.open({ dir, fileSystem, segmentBytes: 1024 });
    // 25 records (1,000 bytes of frames) fill the first segment; the header of the second needs 16 more.
    fileSystem.spaceLeftBytes = 16 + 1000 + 16 + 200;
    await expect(outbox.append(records(0, 60))).rejects.toMatchObject({
      code: 'WEFT_OUTBOX_WRITE_FAILED',
      recordsWritten: 25,
      recordsNotWritten: 35,
    });
    fileSystem.spaceLeftBytes = Number.POSITIVE_INFINITY;
    await outbox.append(records(60, 70));
    await outbox.close();
    expect((await reopenAndReplay(dir)).numbers).toEqual([...range(0, 25), ...range(60, 70)]);
  });

  it('when even the segment header cannot be written, no empty segment is left behind', async () => {
    const dir = await tempDir();
    const fileSystem = new InstrumentedFileSystem();
    const outbox = await Outbox.open({ dir, fileSystem });
    fileSystem.spaceLeftBytes = 0;
    await expect(outbox.append(records(0, 5))).rejects.toMatchObject({
      code: 'WEFT_OUTBOX_WRITE_FAILED',
      recordsNotWritten: 5,
    });
    expect((await readdir(dir)).filter((name) => name.endsWith('.seg'))).toEqual([]);
    fileSystem.spaceLeftBytes = Number.POSITIVE_INFINITY;
    await outbox.append(records(5, 10));
    await outbox.close();
    expect((await reopenAndReplay(dir)).numbers).toEqual(range(5, 10));
  });

  it('when the torn bytes cannot be cut, later appends go to a new segment and nothing valid is lost', async () => {
    const dir = await tempDir();
    const fileSystem = new InstrumentedFileSystem();
    const outbox = await Outbox.open({ dir, fileSystem });
    await outbox.append(records(0, 10));
    fileSystem.spaceLeftBytes = 100;
    fileSystem.failTruncate = true;
    await expect(outbox.append(records(10, 20))).rejects.toMatchObject({ code: 'WEFT_OUTBOX_WRITE_FAILED' });
    fileSystem.spaceLeftBytes = Number.POSITIVE_INFINITY;
    fileSystem.failTruncate = false;
    await outbox.append(records(20, 30));
    expect(outbox.stats).toMatchObject({ segments: 2, records: 20 });

    // In this process replay reads the sealed segment only up to its last good record.
    expect((await replayAll(outbox)).numbers).toEqual([...range(0, 10), ...range(20, 30)]);
    await outbox.append(records(30, 35));
    await outbox.close();
    expect((await reopenAndReplay(dir)).numbers).toEqual(range(30, 35));
  });

  it('after a restart, a sealed segment with a torn write after its records is read up to the tear', async () => {
    const dir = await tempDir();
    const fileSystem = new InstrumentedFileSystem();
    const outbox = await Outbox.open({ dir, fileSystem });
    await outbox.append(records(0, 10));
    fileSystem.spaceLeftBytes = 100;
    fileSystem.failTruncate = true;
    await expect(outbox.append(records(10, 20))).rejects.toMatchObject({ code: 'WEFT_OUTBOX_WRITE_FAILED' });
    fileSystem.spaceLeftBytes = Number.POSITIVE_INFINITY;
    fileSystem.failTruncate = false;
    await outbox.append(records(20, 30));
    await outbox.close();

    // The 100 bytes that reached the disk hold two whole, valid frames (records 10 and 11) and half of
    // a third. A restart finds the whole ones: at-least-once, a duplicate the server's upsert absorbs
    // (the caller was told they were not written and kept them). The half frame is skipped, and the
    // segment, once replayed, is set aside rather than deleted.
    const { numbers, warnings } = await reopenAndReplay(dir);
    expect(numbers).toEqual([...range(0, 12), ...range(20, 30)]);
    expect(warnings).toEqual([
      expect.objectContaining({ kind: 'corrupt-segment', bytesSkipped: 20 }),
      expect.objectContaining({ kind: 'set-aside', bytesSkipped: 20 }),
    ]);
  });
});
