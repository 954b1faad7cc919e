import type { SpanCallPut } from '../../src/storage/index.js';
import { describe, expect, it } from 'vitest';
import { callIdOf, completeOf, endOf, startOf } from '../support/calls.js';
import { parsedQuery, useConformanceStore } from '../support/conformance-storage.js';

/*
 * The storage contract, "Re-sent records are idempotent" and "A read follows
 * a write", for calls: the same tests for every engine (see
 * test/support/conformance-storage.ts).
 */
const store = useConformanceStore();

describe(`storage contract (${store.engine}): call records`, () => {
  it('folds a start and an end into one call whichever arrives first', async () => {
    const project = store.project();
    await store.storage.ingestCalls(project, [endOf(1)]);
    await store.storage.ingestCalls(project, [startOf(2)]);
    await store.storage.ingestCalls(project, [startOf(1), endOf(2)]);
    for (const n of [1, 2]) {
      expect(await store.storage.readCall(project, callIdOf(n))).toMatchObject({
        id: callIdOf(n),
        opName: 'op',
        startedAt: startOf(n).startedAt,
        endedAt: endOf(n).endedAt,
        inputs: { n },
        output: { doubled: n * 2 },
        status: 'success',
        feedback: [],
      });
    }
  });

  it('neither hides an end nor a start that arrives again alone', async () => {
    const project = store.project();
    await store.storage.ingestCalls(project, [completeOf(1)]);
    await store.storage.ingestCalls(project, [startOf(1)]);
    await store.storage.ingestCalls(project, [endOf(1)]);
    await store.storage.ingestCalls(project, [completeOf(1), completeOf(1)]);
    const call = await store.storage.readCall(project, callIdOf(1));
    expect(call).toMatchObject({ inputs: { n: 1 }, output: { doubled: 2 }, status: 'success' });
    const page = await store.storage.queryCalls(parsedQuery({ project }));
    expect(page.calls.map((c) => c.id)).toEqual([callIdOf(1)]);
  });

  it('keeps the later of two copies of the same half', async () => {
    const project = store.project();
    await store.storage.ingestCalls(project, [startOf(1, { displayName: 'first' }), endOf(1)]);
    await store.storage.ingestCalls(project, [startOf(1, { displayName: 'second', inputs: { n: 9 } })]);
    await store.storage.ingestCalls(project, [endOf(1, { output: 'later', exception: undefined })]);
    expect(await store.storage.readCall(project, callIdOf(1))).toMatchObject({
      displayName: 'second',
      inputs: { n: 9 },
      output: 'later',
    });
  });

  it("reads a trace's calls whole in start order, without their values", async () => {
    const project = store.project();
    const trace = { traceId: callIdOf(1) };
    const child = (n: number, startedAt: number) =>
      startOf(n, { ...trace, parentId: callIdOf(1), startedAt, attributes: { step: n } });
    // Out of order, in pieces: a child's end before its start, a start alone,
    // an end alone, another trace's call, and a later copy of a start.
    await store.storage.ingestCalls(project, [endOf(3), completeOf(1), child(2, 1_700_000_000_050)]);
    await store.storage.ingestCalls(project, [child(3, 1_700_000_000_020), completeOf(4), endOf(5)]);
    await store.storage.ingestCalls(project, [child(2, 1_700_000_000_050), endOf(2)]);
    const calls = await store.storage.traceCalls(project, callIdOf(1), 10);
    expect(calls.map((c) => c.id)).toEqual([callIdOf(1), callIdOf(3), callIdOf(2)]);
    expect(calls[1]).toMatchObject({
      traceId: callIdOf(1),
      parentId: callIdOf(1),
      opName: 'op',
      status: 'success',
      endedAt: endOf(3).endedAt,
      attributes: { step: 3 },
      inputs: {},
      output: null,
    });
    expect(calls[1]?.feedback).toBeUndefined();
    expect(await store.storage.traceCalls(project, callIdOf(9), 10)).toEqual([]);
    // Bounded: the first calls by start time, whatever order they arrived in.
    expect((await store.storage.traceCalls(project, callIdOf(1), 2)).map((c) => c.id)).toEqual([
      callIdOf(1),
      callIdOf(3),
    ]);
  });

  it("reads a trace's names as they arrived, escapes and all", async () => {
    const project = store.project();
    const odd = 'tab\there, line\nbreak, back\\slash \\t, quote \' and "double", nul\0 end';
    await store.storage.ingestCalls(project, [
      completeOf(1, { displayName: odd, opName: `op ${odd}`, sessionId: `s ${odd}` }),
      startOf(2, { traceId: callIdOf(1), parentId: callIdOf(1), displayName: '\\', opName: '\\n' }),
    ]);
    const calls = await store.storage.traceCalls(project, callIdOf(1), 10);
    expect(calls.map((c) => [c.displayName, c.opName, c.sessionId])).toEqual([
      [odd, `op ${odd}`, `s ${odd}`],
      ['\\', '\\n', undefined],
    ]);
  });

  it('neither lists nor reads a call whose start has not arrived', async () => {
    const project = store.project();
    await store.storage.ingestCalls(project, [endOf(1)]);
    expect(await store.storage.readCall(project, callIdOf(1))).toBeUndefined();
    expect((await store.storage.queryCalls(parsedQuery({ project }))).calls).toEqual([]);
    expect(await store.storage.readCall(project, callIdOf(2))).toBeUndefined();
  });

  it('reports a running call until its end arrives, and an error when the end has an exception', async () => {
    const project = store.project();
    await store.storage.ingestCalls(project, [startOf(1), startOf(2)]);
    expect(await store.storage.readCall(project, callIdOf(1))).toMatchObject({
      status: 'running',
      endedAt: null,
      output: null,
      summary: null,
    });
    await store.storage.ingestCalls(project, [
      endOf(2, { output: undefined, exception: { name: 'Error', message: 'boom' } }),
    ]);
    expect(await store.storage.readCall(project, callIdOf(2))).toMatchObject({
      status: 'error',
      exception: { name: 'Error', message: 'boom' },
    });
  });

  it('keeps every field of a call as it arrived', async () => {
    const project = store.project();
    const call = completeOf(1, {
      traceId: callIdOf(7),
      parentId: callIdOf(8),
      opName: `weft:///${project}/op/agent:abc`,
      displayName: 'Agent — étape 1',
      inputs: { text: 'héllo', nested: { list: [1, 'two', null, true] }, big: 2 ** 53 - 1 },
      attributes: { env: 'prod', tags: ['a', 'b'] },
      summary: { latencyMs: 12.5, status: 'success' },
      sessionId: 'session-1',
    });
    await store.storage.ingestCalls(project, [call]);
    const { type: _, ...fields } = call;
    expect(await store.storage.readCall(project, callIdOf(1))).toEqual({
      ...fields,
      project,
      exception: null,
      status: 'success',
      feedback: [],
    });
  });

  it('stores nothing of a batch holding a record that cannot be encoded, naming its index', async () => {
    const project = store.project();
    // A value msgpack cannot encode stands in for any record the engine cannot store.
    const bad = startOf(2, { inputs: { f: 1n << 70n } as never });
    await expect(store.storage.ingestCalls(project, [startOf(1), bad])).rejects.toMatchObject({
      code: 'WEFT_INVALID_REQUEST',
      path: 'items.1',
    });
    expect(await store.storage.readCall(project, callIdOf(1))).toBeUndefined();
  });

  it('shows a write to another instance over the same data at once', async () => {
    const project = store.project();
    const other = await store.reopen();
    await other.ingestCalls(project, [completeOf(1)]);
    expect(await store.storage.readCall(project, callIdOf(1))).toMatchObject({ status: 'success' });
  });
});

describe(`storage contract (${store.engine}): usage of OTLP span calls`, () => {
  const usage = (inputTokens: number) => ({
    'gpt-4o': { requests: 1, inputTokens, outputTokens: 1, totalTokens: inputTokens + 1 },
  });
  const span = (n: number, parent: number | null, own?: ReturnType<typeof usage>): SpanCallPut => ({
    call: completeOf(n, {
      traceId: callIdOf(1),
      parentId: parent === null ? null : callIdOf(parent),
      opName: `span ${n}`,
      summary: { latencyMs: 10, status: 'success', ...(own === undefined ? {} : { usage: own }) },
    }),
    usageScope: 'self',
  });

  it('totals a parent over its children, counting a re-sent child once and keeping each child its own', async () => {
    const project = store.project();
    await store.storage.ingestSpanCalls(project, [span(1, null), span(2, 1, usage(100))]);
    await store.storage.ingestSpanCalls(project, [span(3, 1, usage(50)), span(2, 1, usage(100))]);
    expect((await store.storage.readCall(project, callIdOf(1)))?.summary?.usage?.['gpt-4o']).toMatchObject({
      requests: 2,
      inputTokens: 150,
    });
    expect((await store.storage.readCall(project, callIdOf(3)))?.summary?.usage?.['gpt-4o']).toMatchObject({
      inputTokens: 50,
    });
  });
});
