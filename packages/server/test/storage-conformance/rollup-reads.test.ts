import { describe, expect, it } from 'vitest';
import type { CallRollupRow, RollupRead } from '../../src/storage/rollup/index.js';
import { completeOf } from '../support/calls.js';
import { useConformanceStore } from '../support/conformance-storage.js';

const store = useConformanceStore();
const HOUR = 3_600_000;
const MINUTE = 60_000;
const T = 1_700_000_000_000 - (1_700_000_000_000 % HOUR);

describe(`storage contract (${store.engine}): rollup reads`, () => {
  it('answers reads made together each with its own rows, as if made alone', async () => {
    const project = store.project();
    // Calls over three hours, a few in each edge minute the reads below take.
    const calls = Array.from({ length: 60 }, (_, n) => {
      const startedAt = T + n * 3 * MINUTE + (n % 3) * 1_000;
      return completeOf(n, { startedAt, endedAt: startedAt + 100 + n });
    });
    await store.storage.ingestCalls(project, calls);
    const base = {
      project,
      cut: '',
      ops: { all: true },
      byValue: false,
      sums: ['n'],
      histograms: ['latency'],
    } as const;
    // A query from T + 7 min to T + 2 h 50 min in 30-minute buckets: whole hours from hour rows, edges from minutes.
    const reads: RollupRead[] = [
      { ...base, level: 'h', ranges: [[T + HOUR, T + 2 * HOUR]] },
      {
        ...base,
        level: 'm',
        ranges: [
          [T + 7 * MINUTE, T + 30 * MINUTE],
          [T + 30 * MINUTE, T + HOUR],
          [T + 2 * HOUR, T + 2 * HOUR + 30 * MINUTE],
          [T + 2 * HOUR + 30 * MINUTE, T + 2 * HOUR + 50 * MINUTE],
        ],
      },
    ];
    const alone: CallRollupRow[][] = [];
    for (const read of reads) alone.push(await store.storage.monitoring.readCallRollups(read));
    const together = await Promise.all(reads.map((read) => store.storage.monitoring.readCallRollups(read)));
    const sorted = (rows: CallRollupRow[][]) =>
      rows.map((r) => [...r].sort((a, b) => a.t - b.t || a.status.localeCompare(b.status)));
    expect(sorted(together)).toEqual(sorted(alone));
    // Each row lies within one of its own read's ranges, and the counts are the calls there.
    for (const [i, rows] of together.entries()) {
      for (const row of rows) {
        expect(reads[i]?.ranges.some(([from, to]) => row.t >= from && row.t < to)).toBe(true);
      }
    }
    const count = (rows: CallRollupRow[]) => rows.reduce((sum, row) => sum + row.values.n, 0);
    const within = (from: number, to: number) =>
      calls.filter((c) => c.startedAt >= from && c.startedAt < to).length;
    expect(count(together[0] ?? [])).toBe(within(T + HOUR, T + 2 * HOUR));
    expect(count(together[1] ?? [])).toBe(
      within(T + 7 * MINUTE, T + HOUR) + within(T + 2 * HOUR, T + 2 * HOUR + 50 * MINUTE),
    );
  });
});
