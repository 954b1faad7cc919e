import { type CallItem, encodeMsgpack, type FeedbackItem, valueRef } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import type { Storage, StoredValue } from '../../src/storage/index.js';
import { callIdOf, completeOf } from '../support/calls.js';
import { allPages, useConformanceStore } from '../support/conformance-storage.js';

/*
 * The storage contract of retention and deletion (`LifecycleStorage`):
 * whole traces go, with everything derived from them, and the values and
 * files only they referred to; dry runs count exactly that; kept traces.
 */
const store = useConformanceStore();
const DAY = 86_400_000;
const T = 1_700_000_000_000;
const digest = (c: string) => c.repeat(43);

function value(c: string, content: unknown, prev?: string): StoredValue {
  return { digest: digest(c), isArray: prev !== undefined, prev, bytes: encodeMsgpack(content) };
}

/** A trace: root n and children n+1 … n+size-1, started at `at` + i. */
function trace(n: number, size: number, at: number, extra: Partial<CallItem> = {}): CallItem[] {
  return Array.from({ length: size }, (_, i) =>
    completeOf(n + i, {
      traceId: callIdOf(n),
      parentId: i === 0 ? null : callIdOf(n),
      startedAt: at + i,
      endedAt: at + i + 5,
      ...(i === 0 ? extra : {}),
    } as never),
  );
}

async function callRollupCount(storage: Storage, project: string): Promise<number> {
  const rows = await storage.monitoring.readCallRollups({
    project,
    level: 'h',
    ranges: [[0, 9_000_000_000_000]],
    cut: '',
    ops: { all: true },
    byValue: false,
    sums: ['n'],
    histograms: [],
  });
  return rows.reduce((sum, row) => sum + row.values.n, 0);
}

describe(`storage contract (${store.engine}): deleting traces`, () => {
  it('removes the calls, their search text, trace view, feedback, sessions and rollups, and values and files only they used', async () => {
    const project = store.project();
    const fileRef = (c: string) => `weft:///${project}/file/${digest(c)}`;
    await store.storage.putValues(project, [
      value('a', 'private prompt of alice'),
      value('b', ['shared system prompt']),
      value('c', ['alice turn'], digest('b')),
      value('n', { inner: valueRef(digest('m')) }),
      value('m', 'nested secret'),
    ]);
    await store.storage.putFile(project, digest('f'), new Uint8Array([1, 2, 3]));
    await store.storage.putFile(project, digest('g'), new Uint8Array([4, 5, 6]));
    await store.storage.ingestCalls(project, [
      ...trace(1, 3, T, {
        inputs: {
          q: 'zanzibar',
          own: valueRef(digest('a')),
          history: valueRef(digest('c')),
          doc: fileRef('f'),
          n: valueRef(digest('n')),
        },
        sessionId: 's-alice',
        attributes: { 'user.id': 'alice' },
      } as never),
      ...trace(10, 2, T + 100, {
        inputs: { q: 'kept', system: valueRef(digest('b')), doc: fileRef('g') },
        sessionId: 's-bob',
      } as never),
    ]);
    await store.storage.putFeedback(project, [
      { type: 'feedback', id: callIdOf(500), callId: callIdOf(2), name: 'thumbs', value: true, createdAt: T },
    ] satisfies FeedbackItem[]);
    expect(await callRollupCount(store.storage, project)).toBe(5);

    const counts = await store.storage.lifecycle.deleteTraces(project, [callIdOf(1)], { secure: true });
    // Values a, c, n, m and file f were used by trace 1 only; b and g are still used by trace 10.
    expect(counts).toEqual({ traces: 1, calls: 3, values: 4, files: 1 });

    const other = await store.reopen();
    for (const storage of [store.storage, other]) {
      for (const n of [1, 2, 3]) expect(await storage.readCall(project, callIdOf(n))).toBeUndefined();
      expect(await storage.traceCalls(project, callIdOf(1), 10)).toEqual([]);
      expect((await storage.traceColumns(project, callIdOf(1), 10)).ids).toEqual([]);
      expect((await storage.traceColumns(project, callIdOf(10), 10)).ids).toEqual([
        callIdOf(10),
        callIdOf(11),
      ]);
      expect(await allPages(storage, { project })).toEqual([callIdOf(11), callIdOf(10)]);
      expect(await allPages(storage, { project, text: 'zanzibar' })).toEqual([]);
      expect(await allPages(storage, { project, userId: 'alice' })).toEqual([]);
      expect(await storage.listFeedback(project, callIdOf(2))).toEqual([]);
      const sessions = await storage.querySessions({ project, limit: 10 });
      expect(sessions.sessions.map((s) => s.sessionId)).toEqual(['s-bob']);
      const values = await storage.readValues(project, ['a', 'b', 'c', 'n', 'm'].map(digest));
      expect([...values.keys()]).toEqual([digest('b')]);
      expect(await storage.readFile(project, digest('f'))).toBeUndefined();
      expect([...((await storage.readFile(project, digest('g'))) ?? [])]).toEqual([4, 5, 6]);
      expect(await callRollupCount(storage, project)).toBe(2);
    }
  });

  it('counts in a dry run exactly what the deletion then removes, and changes nothing', async () => {
    const project = store.project();
    await store.storage.putValues(project, [value('a', 'only one'), value('b', 'two share it')]);
    await store.storage.ingestCalls(project, [
      ...trace(1, 2, T, { inputs: { x: valueRef(digest('a')), y: valueRef(digest('b')) } } as never),
      ...trace(5, 2, T + 50, { inputs: { y: valueRef(digest('b')) } } as never),
      ...trace(9, 1, T + 90, { inputs: { y: valueRef(digest('b')) } } as never),
    ]);
    const selection = [callIdOf(1), callIdOf(5), callIdOf(404)];
    const dry = await store.storage.lifecycle.measureTraces(project, selection);
    expect(dry).toEqual({ traces: 2, calls: 4, values: 1, files: 0 });
    expect(await allPages(store.storage, { project })).toHaveLength(5);
    expect(await store.storage.lifecycle.deleteTraces(project, selection, { secure: false })).toEqual(dry);
    const all = await store.storage.lifecycle.measureTraces(project, [callIdOf(9)]);
    expect(all).toEqual({ traces: 1, calls: 1, values: 1, files: 0 });
  });

  it('deletes nothing for traces it does not store', async () => {
    const project = store.project();
    await store.storage.ingestCalls(project, trace(1, 1, T));
    expect(await store.storage.lifecycle.deleteTraces(project, [callIdOf(9)], { secure: false })).toEqual({
      traces: 0,
      calls: 0,
      values: 0,
      files: 0,
    });
    expect(await allPages(store.storage, { project })).toEqual([callIdOf(1)]);
  });
});

describe(`storage contract (${store.engine}): retention`, () => {
  it('finds the traces all of whose calls started before the cutoff, page by page', async () => {
    const project = store.project();
    const now = T + 100 * DAY;
    await store.storage.ingestCalls(project, [
      ...trace(1, 3, T),
      ...trace(10, 2, T + DAY),
      // Started long ago, with a child started after the cutoff: not expired.
      ...trace(20, 1, T + 2 * DAY),
      completeOf(21, { traceId: callIdOf(20), parentId: callIdOf(20), startedAt: now - DAY }),
      ...trace(30, 2, now - 2 * DAY),
    ]);
    const cutoff = now - 30 * DAY;
    const found: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await store.storage.lifecycle.expiredTraces(project, cutoff, cursor, 2);
      found.push(...page.traceIds);
      cursor = page.cursor;
      pages++;
    } while (cursor !== undefined && pages < 20);
    expect(new Set(found)).toEqual(new Set([callIdOf(1), callIdOf(10)]));
  });

  it('keeps traces with feedback, dataset rows made from their calls, and evaluation runs', async () => {
    const project = store.project();
    await store.storage.ingestCalls(project, [
      ...trace(1, 2, T),
      ...trace(10, 2, T),
      ...trace(20, 2, T),
      ...trace(30, 2, T, { opName: 'Evaluation.evaluate' } as never),
      ...trace(40, 2, T),
    ]);
    await store.storage.putFeedback(project, [
      { type: 'feedback', id: callIdOf(900), callId: callIdOf(11), name: 'ok', value: 1, createdAt: T },
    ]);
    const row = JSON.stringify({ q: 'x', sourceCall: `weft:///${project}/call/${callIdOf(21)}` });
    await store.storage.putTableRows(project, [{ digest: digest('r'), canonicalValue: row }]);
    const kept = await store.storage.lifecycle.keptTraces(
      project,
      [1, 10, 20, 30, 40].map((n) => callIdOf(n)),
    );
    expect(new Set(kept)).toEqual(new Set([callIdOf(10), callIdOf(20), callIdOf(30)]));
  });

  it('collects values and files nothing refers to once they are older than the bound, and keeps the rest', async () => {
    const project = store.project();
    await store.storage.putValues(project, [
      value('a', 'used'),
      value('b', 'orphan'),
      value('c', ['x'], digest('b')),
    ]);
    await store.storage.putFile(project, digest('f'), new Uint8Array([1]));
    await store.storage.putFile(project, digest('g'), new Uint8Array([2]));
    await store.storage.putObject({
      project,
      name: 'doc',
      kind: 'object',
      digest: digest('o'),
      canonicalValue: JSON.stringify({ file: `weft:///${project}/file/${digest('g')}` }),
    });
    await store.storage.ingestCalls(
      project,
      trace(1, 1, T, { inputs: { a: valueRef(digest('a')) } } as never),
    );
    const young = await sweepGarbage(store.storage, project, Date.now() - 60_000);
    expect(young).toEqual({ values: 0, files: 0 });
    const old = await sweepGarbage(store.storage, project, Date.now() + 60_000);
    expect(old).toEqual({ values: 2, files: 1 });
    const left = await store.storage.readValues(project, ['a', 'b', 'c'].map(digest));
    expect([...left.keys()]).toEqual([digest('a')]);
    expect([...((await store.storage.readFile(project, digest('g'))) ?? [])]).toEqual([2]);
    expect(await store.storage.readFile(project, digest('f'))).toBeUndefined();
  });
});

async function sweepGarbage(
  storage: Storage,
  project: string,
  storedBefore: number,
): Promise<{ values: number; files: number }> {
  let values = 0;
  let files = 0;
  let cursor: string | undefined;
  let steps = 0;
  do {
    const step = await storage.lifecycle.collectGarbage(project, storedBefore, cursor, 2);
    values += step.values;
    files += step.files;
    cursor = step.cursor;
  } while (cursor !== undefined && ++steps < 50);
  return { values, files };
}
