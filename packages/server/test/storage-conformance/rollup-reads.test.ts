import { describe, expect, it } from 'vitest';
import { QUERY_CHANNEL } from '../../src/storage/clickhouse/clickhouse-connection.js';
import type {
  CallRollupRow,
  FeedbackRollupRead,
  FeedbackRollupRow,
  RollupRead,
} from '../../src/storage/rollup/index.js';
import { callIdOf, completeOf } from '../support/calls.js';
import { useConformanceStore } from '../support/conformance-storage.js';

const store = useConformanceStore();
const HOUR = 3_600_000;
const MINUTE = 60_000;
const T = 1_700_000_000_000 - (1_700_000_000_000 % HOUR);

/** Calls over three hours, a few in each edge minute the reads below take. */
const calls = Array.from({ length: 60 }, (_, n) => {
  const startedAt = T + n * 3 * MINUTE + (n % 3) * 1_000;
  return completeOf(n, { startedAt, endedAt: startedAt + 100 + n });
});
/** Calls started in [from, to). */
const within = (from: number, to: number) =>
  calls.filter((c) => c.startedAt >= from && c.startedAt < to).length;
/** A query from T + 7 min to T + 2 h 50 min in 30-minute buckets: whole hours from hour rows, edges from minutes. */
const LEVELS = [
  { level: 'h', ranges: [[T + HOUR, T + 2 * HOUR]] },
  {
    level: 'm',
    ranges: [
      [T + 7 * MINUTE, T + 30 * MINUTE],
      [T + 30 * MINUTE, T + HOUR],
      [T + 2 * HOUR, T + 2 * HOUR + 30 * MINUTE],
      [T + 2 * HOUR + 30 * MINUTE, T + 2 * HOUR + 50 * MINUTE],
    ],
  },
] as const;
/**
 * Makes `reads` one after another, then together, and checks that together
 * each gets the rows it gets alone, within its own ranges, in one statement
 * on ClickHouse. Returns the rows read together.
 */
async function readAloneAndTogether<Read extends Pick<RollupRead, 'ranges'>, Row extends { t: number }>(
  reads: readonly Read[],
  readOne: (read: Read) => Promise<Row[]>,
  order: (a: Row, b: Row) => number,
): Promise<Row[][]> {
  const alone: Row[][] = [];
  for (const read of reads) alone.push(await readOne(read));
  let statements = 0;
  const listener = () => {
    statements += 1;
  };
  QUERY_CHANNEL.subscribe(listener);
  let together: Row[][];
  try {
    together = await Promise.all(reads.map(readOne));
  } finally {
    QUERY_CHANNEL.unsubscribe(listener);
  }
  expect(statements).toBe(ONE_STATEMENT);
  const sorted = (rows: Row[][]) => rows.map((r) => [...r].sort(order));
  expect(sorted(together)).toEqual(sorted(alone));
  for (const [i, rows] of together.entries()) {
    for (const row of rows) {
      expect(reads[i]?.ranges.some(([from, to]) => row.t >= from && row.t < to)).toBe(true);
    }
  }
  return together;
}
/** Reads made together: one statement on ClickHouse (chDB or a server), none published on SQLite. */
const ONE_STATEMENT = store.engine === 'sqlite' ? 0 : 1;

/** The calls each of {@link LEVELS} covers. */
const COVERED = [
  within(T + HOUR, T + 2 * HOUR),
  within(T + 7 * MINUTE, T + HOUR) + within(T + 2 * HOUR, T + 2 * HOUR + 50 * MINUTE),
];

describe(`storage contract (${store.engine}): rollup reads`, () => {
  it('answers reads made together each with its own rows, as if made alone', async () => {
    const project = store.project();
    await store.storage.ingestCalls(project, calls);
    const base = {
      project,
      cut: '',
      ops: { all: true },
      byValue: false,
      sums: ['n'],
      histograms: ['latency'],
    } as const;
    const reads: RollupRead[] = LEVELS.map((level) => ({ ...base, ...level }));
    const together = await readAloneAndTogether(
      reads,
      (read) => store.storage.monitoring.readCallRollups(read),
      (a, b) => a.t - b.t || a.status.localeCompare(b.status),
    );
    // The counts are the calls in each read's ranges.
    const count = (rows: CallRollupRow[]) => rows.reduce((sum, row) => sum + row.values.n, 0);
    expect(together.map(count)).toEqual(COVERED);
  });

  it('answers feedback reads made together each with its own rows, as if made alone', async () => {
    const project = store.project();
    await store.storage.ingestCalls(project, calls);
    // A score on every call, and a label on every other one.
    await store.storage.putFeedback(
      project,
      calls.flatMap(
        (call, n) =>
          [
            {
              type: 'feedback',
              id: callIdOf(1_000 + n),
              callId: call.id,
              name: 'score',
              value: n / 10,
              createdAt: T,
            },
            ...(n % 2 === 0
              ? [
                  {
                    type: 'feedback',
                    id: callIdOf(2_000 + n),
                    callId: call.id,
                    name: 'label',
                    value: `l${n % 4}`,
                    createdAt: T,
                  } as const,
                ]
              : []),
          ] as const,
      ),
    );
    const base = { project, cut: '', ops: { all: true }, byValue: false, names: ['score', 'label'] } as const;
    const reads: FeedbackRollupRead[] = LEVELS.map((level) => ({ ...base, ...level }));
    const together = await readAloneAndTogether(
      reads,
      (read) => store.storage.monitoring.readFeedbackRollups(read),
      (a, b) => a.t - b.t || a.name.localeCompare(b.name),
    );
    const scores = (rows: FeedbackRollupRow[]) =>
      rows.filter((row) => row.name === 'score').reduce((sum, row) => sum + row.values.n, 0);
    expect(together.map(scores)).toEqual(COVERED);
  });
});
