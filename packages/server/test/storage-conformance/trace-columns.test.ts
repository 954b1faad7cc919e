import { callsOfTraceColumns, traceColumnsOf } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { callIdOf, completeOf, endOf, startOf } from '../support/calls.js';
import { useConformanceStore } from '../support/conformance-storage.js';

/*
 * The storage contract, `traceColumns`: a trace's light calls as columns,
 * the same answer `traceColumnsOf` gives of `traceCalls`, for every engine
 * (see test/support/conformance-storage.ts).
 */
const store = useConformanceStore();

describe(`storage contract (${store.engine}): a trace as columns`, () => {
  it("reads a trace's calls as columns that give back its calls, each name and value once", async () => {
    const project = store.project();
    const traceId = callIdOf(1);
    const odd = 'tab\there, line\nbreak, back\\slash \\t, quote \' and "double", nul\0 end';
    const inTrace = { traceId, parentId: callIdOf(1) };
    const summary = { usage: { 'gpt-4o': { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 } } };
    await store.storage.ingestCalls(project, [
      completeOf(1, {
        displayName: odd,
        opName: `op ${odd}`,
        sessionId: `s ${odd}`,
        attributes: { a: 1 },
        summary,
      }),
      // Starts before its parent: its parent is still given by index.
      completeOf(2, { ...inTrace, startedAt: 1_699_999_999_990, attributes: { a: 1 }, summary }),
      startOf(3, { ...inTrace, opName: `op ${odd}`, attributes: { step: [1, 'two'] } }),
      // Its parent is not a call of the trace: given by id.
      startOf(4, { traceId, parentId: callIdOf(99), displayName: '\\', opName: '\\n' }),
      endOf(4, { output: undefined, exception: { name: 'Error', message: `boom ${odd}` } }),
      startOf(5, { ...inTrace, sessionId: `s ${odd}` }),
      completeOf(6),
    ]);
    const calls = await store.storage.traceCalls(project, traceId, 10);
    const columns = await store.storage.traceColumns(project, traceId, 10);
    expect(columns).toEqual(traceColumnsOf(project, traceId, calls, false));
    expect(callsOfTraceColumns(columns)).toEqual(calls);
    expect(columns.ids).toEqual([2, 1, 3, 4, 5].map((n) => callIdOf(n)));
    expect(columns.parents).toEqual([1, null, 1, callIdOf(99), 1]);
    expect(columns.status).toEqual(['success', 'success', 'running', 'error', 'running']);
    expect(columns.strings.filter((s) => s === `op ${odd}`)).toHaveLength(1);
    expect(columns.values.filter((v) => JSON.stringify(v) === '{"a":1}')).toHaveLength(1);
    expect(columns.summary[0]).toBe(columns.summary[1]);
    expect(columns.exception).toEqual([null, null, null, expect.any(Number), null]);
  });

  it('shows the newest state of each call: halves sent apart, records sent again', async () => {
    const project = store.project();
    const traceId = callIdOf(1);
    const inTrace = { traceId, parentId: traceId };
    await store.storage.ingestCalls(project, [startOf(1, { attributes: { v: 1 } }), completeOf(2, inTrace)]);
    expect((await store.storage.traceColumns(project, traceId, 10)).status).toEqual(['running', 'success']);
    // The end of 1 alone, then its start again with other attributes, then 2 again, whole.
    await store.storage.ingestCalls(project, [endOf(1, { exception: { name: 'E', message: 'late' } })]);
    await store.storage.ingestCalls(project, [startOf(1, { attributes: { v: 2 } })]);
    await store.storage.ingestCalls(project, [completeOf(2, { ...inTrace, attributes: { again: true } })]);
    const columns = await store.storage.traceColumns(project, traceId, 10);
    expect(callsOfTraceColumns(columns)).toEqual(await store.storage.traceCalls(project, traceId, 10));
    expect(columns).toMatchObject({
      ids: [callIdOf(1), callIdOf(2)],
      status: ['error', 'success'],
      endedAt: [1_700_000_000_011, 1_700_000_000_012],
      values: [{ v: 2 }, { name: 'E', message: 'late' }, { again: true }],
    });
  });

  it('reads at most the first calls by start time, and says the trace holds more', async () => {
    const project = store.project();
    const traceId = callIdOf(1);
    await store.storage.ingestCalls(project, [
      completeOf(3, { traceId, parentId: traceId }),
      completeOf(1),
      completeOf(2, { traceId, parentId: traceId }),
    ]);
    const first = await store.storage.traceColumns(project, traceId, 2);
    expect(first).toMatchObject({ truncated: true, ids: [callIdOf(1), callIdOf(2)], parents: [null, 0] });
    expect(await store.storage.traceColumns(project, traceId, 3)).toMatchObject({ truncated: false });
    expect(await store.storage.traceColumns(project, callIdOf(9), 10)).toMatchObject({
      truncated: false,
      ids: [],
      strings: [],
      values: [],
    });
  });
});
