import type { CallComplete, CallSortField, CallStart } from '@weft/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CursorPosition, encodeCursor } from '../../src/storage/index.js';
import { callIdOf, completeOf, endOf, startOf } from '../support/calls.js';
import { allPages, parsedQuery, useConformanceStore } from '../support/conformance-storage.js';
import { type SortKey, sortedIds } from '../support/sorted-ids.js';

/*
 * The storage contract, "Sort keys and cursors": every sort, both
 * directions, paged in small pages over keys with ties, on every engine.
 */
const store = useConformanceStore();
let project: string;

const T = 1_700_000_000_000;
/** Op names whose UTF-8 byte order differs from a case-insensitive or locale order. */
const OPS = ['Zeta', 'alpha', 'Éclair', 'éclair', 'alpha'];

/** Thirty calls: start times, latencies and op names with many ties; every fifth is still running. */
const CALLS: (CallComplete | CallStart)[] = Array.from({ length: 30 }, (_, i) => {
  const n = i + 1;
  const startedAt = T + (n % 7);
  const opName = OPS[n % OPS.length] as string;
  if (n % 5 === 0) return startOf(n, { startedAt, opName });
  // Latency given by the summary (ties), or computed from the times when the summary has none.
  const given = n % 2 === 0;
  return completeOf(n, {
    startedAt,
    opName,
    endedAt: startedAt + (n % 4) * 10,
    summary: given ? { latencyMs: (n % 3) * 10, status: 'success' } : undefined,
  });
});

/** The contract's sort key of each call. */
function keyOf(field: CallSortField, call: CallComplete | CallStart): SortKey {
  if (field === 'startedAt') return call.startedAt;
  if (field === 'opName') return [call.opName, call.startedAt];
  if (call.type === 'start') return -1;
  return call.summary?.latencyMs ?? call.endedAt - call.startedAt;
}

beforeAll(async () => {
  project = store.project();
  // In two batches, the second re-sending some: neither changes the order.
  await store.storage.ingestCalls(project, CALLS.slice(0, 20));
  await store.storage.ingestCalls(project, CALLS.slice(10));
});

describe(`storage contract (${store.engine}): sort keys and cursors`, () => {
  const sorts = (['startedAt', 'latencyMs', 'opName'] as const).flatMap((field) =>
    (['asc', 'desc'] as const).map((direction) => ({ field, direction })),
  );

  it.each(sorts)('pages by $field $direction, ties by id, each call once', async (sort) => {
    const expected = sortedIds(CALLS, (call) => keyOf(sort.field, call), sort.direction);
    expect(await allPages(store.storage, { project, sort, limit: 4 })).toEqual(expected);
  });

  it.each(sorts)('pages by $field $direction under a filter', async (sort) => {
    const running = CALLS.filter((call) => call.type === 'start');
    const expected = sortedIds(running, (call) => keyOf(sort.field, call), sort.direction);
    expect(await allPages(store.storage, { project, sort, limit: 2, status: 'running' })).toEqual(expected);
  });

  it.each<[CallSortField, 'asc' | 'desc', (call: CallComplete | CallStart) => CursorPosition['key']]>([
    ['startedAt', 'asc', (call) => call.startedAt],
    ['latencyMs', 'desc', (call) => keyOf('latencyMs', call) as number],
    ['opName', 'asc', (call) => [call.opName, call.startedAt]],
  ])('makes the cursor of %s %s from the last call of the page', async (field, direction, key) => {
    const page = await store.storage.queryCalls(
      parsedQuery({ project, sort: { field, direction }, limit: 5 }),
    );
    const last = CALLS.find((call) => call.id === page.calls.at(-1)?.id) as CallComplete | CallStart;
    expect(page.nextCursor).toBe(encodeCursor(`${field}:${direction}`, { key: key(last), id: last.id }));
  });

  it('answers no cursor on the last page', async () => {
    const page = await store.storage.queryCalls(parsedQuery({ project, limit: 30 }));
    expect(page.calls).toHaveLength(30);
    expect(page.nextCursor).toBeNull();
  });

  it('continues a cursor in another instance over the same data', async () => {
    const sort = { field: 'opName', direction: 'desc' } as const;
    const first = await store.storage.queryCalls(parsedQuery({ project, sort, limit: 7 }));
    const other = await store.reopen();
    const rest = await allPages(other, { project, sort, limit: 7, cursor: first.nextCursor as string });
    expect([...first.calls.map((c) => c.id), ...rest]).toEqual(
      sortedIds(CALLS, (call) => keyOf('opName', call), 'desc'),
    );
  });

  it('sorts a call once by its newest latency after its end arrives late or again', async () => {
    const own = store.project();
    // 1 ends at latency 10, then its end is sent again at 50; 2 runs, then
    // ends at 30; 3 runs on. Each old state (10, running) is a stale copy.
    await store.storage.ingestCalls(own, [
      completeOf(1, { summary: { latencyMs: 10 } }),
      startOf(2),
      startOf(3),
    ]);
    await store.storage.ingestCalls(own, [
      endOf(1, { summary: { latencyMs: 50 } }),
      endOf(2, { summary: { latencyMs: 30 } }),
    ]);
    for (const direction of ['desc', 'asc'] as const) {
      const ids = await allPages(store.storage, {
        project: own,
        sort: { field: 'latencyMs', direction },
        limit: 1,
      });
      const desc = [callIdOf(1), callIdOf(2), callIdOf(3)];
      expect(ids).toEqual(direction === 'desc' ? desc : desc.reverse());
    }
  });

  it('pages on from a cursor made by encodeCursor, as any engine makes it', async () => {
    const cursor = encodeCursor('startedAt:asc', { key: T + 3, id: callIdOf(10) });
    const ids = await allPages(store.storage, {
      project,
      sort: { field: 'startedAt', direction: 'asc' },
      limit: 50,
      cursor,
    });
    const after = CALLS.filter((c) => c.startedAt > T + 3 || (c.startedAt === T + 3 && c.id > callIdOf(10)));
    expect(ids).toEqual(sortedIds(after, (call) => call.startedAt, 'asc'));
  });

  it.each<[string, CallSortField, string]>([
    ['a cursor of another sort', 'startedAt', encodeCursor('latencyMs:desc', { key: 1, id: callIdOf(1) })],
    [
      'an op-name key under a time sort',
      'startedAt',
      encodeCursor('startedAt:desc', { key: ['a', 1], id: callIdOf(1) }),
    ],
    [
      'a number key under the op-name sort',
      'opName',
      encodeCursor('opName:desc', { key: 1, id: callIdOf(1) }),
    ],
    ['text that is no cursor', 'startedAt', 'bm90IGEgY3Vyc29y'],
  ])('refuses %s with WEFT_INVALID_REQUEST at cursor', async (_, field, cursor) => {
    await expect(
      store.storage.queryCalls(parsedQuery({ project, cursor, sort: { field, direction: 'desc' } })),
    ).rejects.toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'cursor' });
  });
});
