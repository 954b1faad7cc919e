import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Outbox, type OutboxFsyncPolicy } from './index.js';
import { InstrumentedFileSystem } from '../../test/support/outbox/instrumented-file-system.js';
import { range, records, replayAll } from '../../test/support/outbox/records.js';
import { tempDir } from '../../test/support/outbox/temp-dir.js';

/** Appends 5 batches of 10 records (25 records per segment: 2 segments) one after another; returns the synced file names. */
async function syncsFor(fsync: OutboxFsyncPolicy): Promise<{ synced: string[]; replayed: number[] }> {
  const dir = await tempDir();
  const fileSystem = new InstrumentedFileSystem();
  const outbox = await Outbox.open({ dir, fsync, segmentBytes: 1024, fileSystem });
  for (let batch = 0; batch < 5; batch++) await outbox.append(records(batch * 10, batch * 10 + 10));
  // The lock file is fsynced once whatever the policy; it is not data.
  const synced = fileSystem.syncedPaths
    .map((path) => basename(path))
    .filter((name) => name !== 'outbox.lock');
  await outbox.close();
  const reopened = await Outbox.open({ dir });
  const { numbers } = await replayAll(reopened);
  await reopened.close();
  return { synced, replayed: numbers };
}

const SEGMENT_1 = 'segment-0000000000000001.seg';
const SEGMENT_2 = 'segment-0000000000000002.seg';

describe('outbox fsync policy', () => {
  it("'batch' fsyncs the segment before every append resolves, and the folder when a segment is created", async () => {
    const { synced, replayed } = await syncsFor('batch');
    const segmentSyncs = synced.filter((name) => name.endsWith('.seg'));
    // Appends 1 and 2 end in segment 1; append 3 fills it (synced at rotation) and ends in segment 2 (synced
    // again at the end of the round); appends 4 and 5 end in segment 2.
    expect(segmentSyncs).toEqual([SEGMENT_1, SEGMENT_1, SEGMENT_1, SEGMENT_2, SEGMENT_2, SEGMENT_2]);
    expect(synced.filter((name) => !name.endsWith('.seg'))).toHaveLength(2);
    expect(replayed).toEqual(range(0, 50));
  });

  it("'segment' fsyncs only when a segment closes", async () => {
    const { synced, replayed } = await syncsFor('segment');
    expect(synced.filter((name) => name.endsWith('.seg'))).toEqual([SEGMENT_1]);
    expect(replayed).toEqual(range(0, 50));
  });

  it("'never' does not fsync at all", async () => {
    const { synced, replayed } = await syncsFor('never');
    expect(synced).toEqual([]);
    expect(replayed).toEqual(range(0, 50));
  });

  it('group commit: appends queued while a round is written share one fsync', async () => {
    const dir = await tempDir();
    const fileSystem = new InstrumentedFileSystem();
    const outbox = await Outbox.open({ dir, fileSystem });
    // Issued in one turn: the writer starts on a later microtask and takes all twenty in one round.
    await Promise.all(range(0, 20).map((i) => outbox.append(records(i, i + 1))));
    const segmentSyncs = fileSystem.syncedPaths.filter((path) => path.endsWith('.seg'));
    expect(segmentSyncs).toHaveLength(1);
    expect((await replayAll(outbox)).numbers).toEqual(range(0, 20));
    await outbox.close();
  });
});
