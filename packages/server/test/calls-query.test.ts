import { type CallItem, type CallSortField, callsOfTraceColumns, routes } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callIdOf, startOf } from './support/calls.js';
import { get, post } from './support/http.js';
import { type SortKey, sortedIds } from './support/sorted-ids.js';
import { startTestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server.close());

const OP_DIGEST = 'A'.repeat(43);
const OPS = ['chat', 'embed', 'retrieve', 'rank', 'summarize'];

interface Expected {
  id: string;
  traceId: string;
  parentId: string | null;
  opPlain: string;
  opName: string;
  displayName: string | undefined;
  startedAt: number;
  status: 'running' | 'success' | 'error';
  latencyKey: number;
}

/**
 * A varied dataset: traces of 10 calls (a root and 9 children), five op names
 * (every other call names its op by ref URI), repeated start times and
 * latencies (so the id tie-break matters), a third of calls still running.
 */
function dataset(count: number, project: string): { items: CallItem[]; expected: Expected[] } {
  const items: CallItem[] = [];
  const expected: Expected[] = [];
  for (let n = 0; n < count; n++) {
    const root = n - (n % 10);
    const opPlain = OPS[n % OPS.length] as string;
    const opName = n % 2 === 0 ? opPlain : `weft:///${project}/op/${opPlain}:${OP_DIGEST}`;
    const startedAt = 1_700_000_000_000 + Math.floor(n / 3);
    const displayName = n % 7 === 0 ? `Step ${n} of Pipeline` : undefined;
    const running = n % 3 === 0;
    const latency = (n * 7919) % 50;
    const status = running ? 'running' : n % 5 === 0 ? 'error' : 'success';
    const base = {
      id: callIdOf(n),
      traceId: callIdOf(root),
      parentId: n === root ? null : callIdOf(root),
      opName,
      startedAt,
      inputs: { n },
      ...(displayName ? { displayName } : {}),
    };
    items.push(
      running
        ? { type: 'start', ...base }
        : {
            type: 'complete',
            ...base,
            endedAt: startedAt + latency,
            output: n,
            ...(status === 'error' ? { exception: { name: 'Error', message: `failed ${n}` } } : {}),
          },
    );
    expected.push({
      id: base.id,
      traceId: base.traceId,
      parentId: base.parentId,
      opPlain,
      opName,
      displayName,
      startedAt,
      status,
      latencyKey: running ? -1 : latency,
    });
  }
  return { items, expected };
}

async function ingestAll(project: string, items: CallItem[]): Promise<void> {
  for (let i = 0; i < items.length; i += 500) {
    const reply = await post(
      server.url,
      routes.callBatch(),
      { project, items: items.slice(i, i + 500) },
      { format: 'msgpack' },
    );
    expect(reply.status).toBe(200);
  }
}

async function pageAll(
  body: Record<string, unknown>,
  limit: number,
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const reply = await post(server.url, routes.callQuery(), {
      ...body,
      limit,
      ...(cursor ? { cursor } : {}),
    });
    expect(reply.status).toBe(200);
    pages++;
    for (const call of reply.body.calls) ids.push(call.id);
    cursor = reply.body.nextCursor ?? undefined;
  } while (cursor);
  return { ids, pages };
}

const keyOf: Record<CallSortField, (e: Expected) => SortKey> = {
  startedAt: (e) => e.startedAt,
  latencyMs: (e) => e.latencyKey,
  opName: (e) => [e.opPlain, e.startedAt],
};

const sortedIdsOf = (rows: Expected[], field: CallSortField, direction: 'asc' | 'desc') =>
  sortedIds(rows, keyOf[field], direction);

describe('paging 10,000 calls', () => {
  const project = 'paging';
  const { items, expected } = dataset(10_000, project);
  beforeAll(() => ingestAll(project, items));

  const sorts = (['startedAt', 'latencyMs', 'opName'] as const).flatMap((field) =>
    (['asc', 'desc'] as const).map((direction) => ({ field, direction })),
  );
  it.each(sorts)('pages by $field $direction with no gap, duplicate or misorder', async (sort) => {
    const { ids, pages } = await pageAll({ project, sort }, 97);
    expect(pages).toBe(Math.ceil(10_000 / 97));
    expect(new Set(ids).size).toBe(10_000);
    expect(ids).toEqual(sortedIdsOf(expected, sort.field, sort.direction));
  });

  it('sees every pre-existing call exactly once when calls are inserted between pages', async () => {
    const live = 'paging-live';
    const { items: liveItems } = dataset(1_000, live);
    await ingestAll(live, liveItems);
    const seen: string[] = [];
    const newer: string[] = [];
    const older: string[] = [];
    let cursor: string | undefined;
    let n = 20_000;
    do {
      const reply = await post(server.url, routes.callQuery(), {
        project: live,
        limit: 97,
        ...(cursor ? { cursor } : {}),
      });
      for (const call of reply.body.calls) seen.push(call.id);
      cursor = reply.body.nextCursor ?? undefined;
      // Between pages: one call newer than everything (before the cursor in
      // descending order) and one older than everything (after it).
      const fresh = startOf(n++, { startedAt: 1_800_000_000_000 + n });
      const old = startOf(n++, { startedAt: 1_600_000_000_000 + n });
      await ingestAll(live, [fresh, old]);
      if (cursor) {
        newer.push(fresh.id);
        older.push(old.id);
      }
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    const seenSet = new Set(seen);
    for (const item of liveItems) expect(seenSet.has(item.id)).toBe(true);
    for (const id of older) expect(seenSet.has(id)).toBe(true);
    for (const id of newer) expect(seenSet.has(id)).toBe(false);
    expect(seen).toHaveLength(1_000 + older.length);
  });

  it('refuses a cursor made for another sort, and a forged cursor, naming the cursor field', async () => {
    const first = await post(server.url, routes.callQuery(), { project, limit: 5 });
    const reused = await post(server.url, routes.callQuery(), {
      project,
      limit: 5,
      cursor: first.body.nextCursor,
      sort: { field: 'opName', direction: 'asc' },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'cursor' });
    const forged = await post(server.url, routes.callQuery(), { project, cursor: 'not-a-cursor!!' });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'cursor' });
  });
});

describe('filters', () => {
  const project = 'filters';
  const { items, expected } = dataset(300, project);
  beforeAll(() => ingestAll(project, items));

  const cases: { name: string; filter: Record<string, unknown>; keep: (e: Expected) => boolean }[] = [
    { name: 'traceId', filter: { traceId: callIdOf(40) }, keep: (e) => e.traceId === callIdOf(40) },
    { name: 'parentId', filter: { parentId: callIdOf(120) }, keep: (e) => e.parentId === callIdOf(120) },
    { name: 'parentId null (roots)', filter: { parentId: null }, keep: (e) => e.parentId === null },
    {
      name: 'opName plain (matches refs of that name)',
      filter: { opName: 'embed' },
      keep: (e) => e.opPlain === 'embed',
    },
    {
      name: 'opName list',
      filter: { opName: ['embed', 'rank'] },
      keep: (e) => e.opPlain === 'embed' || e.opPlain === 'rank',
    },
    {
      name: 'opName as an exact op ref',
      filter: { opName: `weft:///${project}/op/chat:${OP_DIGEST}` },
      keep: (e) => e.opName === `weft:///${project}/op/chat:${OP_DIGEST}`,
    },
    {
      name: 'opName mixing a plain name and an exact op ref',
      filter: { opName: ['rank', `weft:///${project}/op/chat:${OP_DIGEST}`] },
      keep: (e) => e.opPlain === 'rank' || e.opName === `weft:///${project}/op/chat:${OP_DIGEST}`,
    },
    { name: 'status running', filter: { status: 'running' }, keep: (e) => e.status === 'running' },
    { name: 'status list', filter: { status: ['error', 'success'] }, keep: (e) => e.status !== 'running' },
    {
      name: 'startedAfter (inclusive) and startedBefore (exclusive)',
      filter: { startedAfter: 1_700_000_000_010, startedBefore: 1_700_000_000_020 },
      keep: (e) => e.startedAt >= 1_700_000_000_010 && e.startedAt < 1_700_000_000_020,
    },
    {
      name: 'text in the display name, case-insensitive',
      filter: { text: 'pIpElInE' },
      keep: (e) => e.displayName !== undefined,
    },
    // Full-text search: whole words, case-insensitive.
    { name: 'text in the op name', filter: { text: 'SUMMARIZE' }, keep: (e) => e.opPlain === 'summarize' },
    {
      name: 'several filters together',
      filter: { parentId: callIdOf(50), status: 'success', opName: ['chat', 'rank', 'embed'] },
      keep: (e) =>
        e.parentId === callIdOf(50) &&
        e.status === 'success' &&
        ['chat', 'rank', 'embed'].includes(e.opPlain),
    },
  ];

  it.each(cases)('filters by $name', async ({ filter, keep }) => {
    const want = expected.filter(keep);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(expected.length);
    const { ids } = await pageAll({ project, ...filter, sort: { field: 'startedAt', direction: 'asc' } }, 13);
    expect(ids).toEqual(sortedIdsOf(want, 'startedAt', 'asc'));
  });

  it("answers a trace's calls whole and light over HTTP, and refuses a malformed trace id", async () => {
    const trace = await get(server.url, routes.traceCalls(project, callIdOf(0)));
    const want = expected.filter((e) => e.traceId === callIdOf(0));
    expect(trace.status).toBe(200);
    expect(trace.body.calls.map((c: { id: string }) => c.id)).toEqual(sortedIdsOf(want, 'startedAt', 'asc'));
    expect(trace.body.calls[1]).toMatchObject({ id: callIdOf(1), inputs: {}, output: null });
    expect(trace.body.truncated).toBe(false);
    const bad = await get(server.url, routes.traceCalls(project, 'not a call id'));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'WEFT_INVALID_REQUEST' });
  });

  it("answers a trace's calls as columns, each shared value once, that give back the same calls", async () => {
    const traceId = callIdOf(0);
    const [light, columns] = await Promise.all([
      get(server.url, routes.traceCalls(project, traceId)),
      get(server.url, routes.traceColumns(project, traceId)),
    ]);
    expect(columns.status).toBe(200);
    // Calls 0…9, in start order: running every third, an error at 5.
    expect(columns.body).toMatchObject({
      project,
      traceId,
      truncated: false,
      ids: light.body.calls.map((c: { id: string }) => c.id),
      parents: [null, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      status: [
        'running',
        'success',
        'success',
        'running',
        'success',
        'error',
        'running',
        'success',
        'success',
        'running',
      ],
      endedAt: expect.arrayContaining([null]),
      // Every call's attributes are {}: one value, shared.
      attributes: Array(10).fill(columns.body.attributes[0]),
    });
    expect(columns.body.values[columns.body.attributes[0]]).toEqual({});
    expect(columns.body.strings.filter((s: string) => s === 'chat')).toHaveLength(1);
    expect(callsOfTraceColumns(columns.body)).toEqual(light.body.calls);
    const bad = await get(server.url, `${routes.traceCalls(project, traceId)}?layout=rows`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'WEFT_INVALID_REQUEST' });
  });

  it('returns calls in the wire shape, with op refs kept as sent', async () => {
    const reply = await post(server.url, routes.callQuery(), {
      project,
      traceId: callIdOf(0),
      limit: 2,
      sort: { field: 'startedAt', direction: 'asc' },
    });
    expect(reply.body.calls[0]).toMatchObject({
      project,
      id: callIdOf(0),
      parentId: null,
      opName: 'chat',
      status: 'running',
    });
    expect(reply.body.calls[1]).toMatchObject({
      id: callIdOf(1),
      opName: `weft:///${project}/op/embed:${OP_DIGEST}`,
    });
  });
});
