import type { CallItem } from '@weft/protocol';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { BatchFollowUp } from './batch-follow-up.js';
import { type RowBatch, SqliteCallStore, type UpsertRow, upsertRow } from './call-store.js';
import { InlineCallWriter } from './call-writer.js';
import { migrate } from './migrations.js';

const id = (n: number) => `0190a5f0-0000-7000-8000-${String(n).padStart(12, '0')}`;
const call = (n: number): CallItem => ({
  type: 'complete',
  id: id(n),
  traceId: id(n),
  parentId: null,
  opName: 'op',
  displayName: `call ${n}`,
  startedAt: 1_700_000_000_000 + n,
  endedAt: 1_700_000_000_100 + n,
  inputs: { question: `question ${n}` },
  output: `answer ${n}`,
});

/**
 * A writer on a fresh in-memory database, with the number of batches each
 * of its transactions carried (the store underneath is the real one).
 */
function writerOnFreshDb() {
  const db = new Database(':memory:');
  migrate(db);
  const calls = new SqliteCallStore(db);
  const transactions: number[] = [];
  const counted = {
    write(batchRows: readonly UpsertRow[], followUp?: BatchFollowUp) {
      transactions.push(1);
      calls.write(batchRows, followUp);
    },
    writeBatches(batches: readonly RowBatch[]) {
      transactions.push(batches.length);
      calls.writeBatches(batches);
    },
  };
  const stored = () => db.prepare('SELECT id FROM calls ORDER BY id').pluck().all() as string[];
  return { writer: new InlineCallWriter({ calls: counted }), stored, transactions };
}

const rows = (project: string, ...ns: number[]): UpsertRow[] => ns.map((n) => upsertRow(project, call(n)));

describe('InlineCallWriter (group commit)', () => {
  it('commits batches submitted in the same turn in one transaction, each stored and acknowledged', async () => {
    const { writer, stored, transactions } = writerOnFreshDb();
    await Promise.all([
      writer.write(rows('p', 1, 2)),
      writer.write(rows('p', 3)),
      writer.write(rows('q', 4)),
    ]);
    expect(stored()).toEqual([id(1), id(2), id(3), id(4)]);
    expect(transactions).toEqual([3]);
    // A batch submitted later goes in a transaction of its own.
    await writer.write(rows('p', 5));
    expect(transactions).toEqual([3, 1]);
  });

  it('when one batch of a group fails, stores the others and fails only that one', async () => {
    const { writer, stored, transactions } = writerOnFreshDb();
    // A batch mixing two projects cannot be indexed: its write throws inside the transaction.
    const mixed = [...rows('p', 2), ...rows('q', 3)];
    const results = await Promise.allSettled([
      writer.write(rows('p', 1)),
      writer.write(mixed),
      writer.write(rows('p', 4)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/two projects/);
    expect(stored()).toEqual([id(1), id(4)]);
    // The shared transaction rolled back; then each batch alone.
    expect(transactions).toEqual([3, 1, 1, 1]);
  });

  it('close waits for the batches already submitted', async () => {
    const { writer, stored } = writerOnFreshDb();
    const written = writer.write(rows('p', 1));
    await writer.close();
    expect(stored()).toEqual([id(1)]);
    await written;
  });
});
