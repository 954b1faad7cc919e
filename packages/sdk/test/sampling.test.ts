import type { CallItem } from '@weft/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as weft from '@weft/sdk';
import { InvalidOptionsError } from '@weft/sdk/errors';
import { isTraceSampled } from '../src/sampling/index.js';
import { createClient, resetWeft } from '../src/testing/index.js';
import { startTestServer } from '@weft/test-server';
import { listServerCalls } from './support/index.js';
import { memorySink } from './support/memory-sink.js';

afterEach(async () => {
  vi.useRealTimers();
  await resetWeft();
});

type Ended = Extract<CallItem, { type: 'complete' }>;

function sinkClient(extra: weft.WeftOptions) {
  const sink = memorySink();
  const client = createClient(
    { project: 'sampling', outbox: false, handleExit: false, ...extra },
    () => sink,
  );
  const recorded = () => sink.items.filter((i): i is Ended => i.type === 'complete');
  return { client, sink, recorded };
}

/** A trace of 4 calls: root → two children, the second with a grandchild. */
function agent() {
  const leaf = weft.op(async function leaf(x: number) {
    await null;
    return x + 1;
  });
  const tool = weft.op(async function tool(x: number) {
    return leaf(x);
  });
  const step = weft.op(async function step(x: number) {
    return x * 2;
  });
  return weft.op(async function root(x: number) {
    return (await step(x)) + (await tool(x));
  });
}

/** Every recorded call's parent is recorded too, and every trace is whole (4 calls). */
function expectWholeTraces(
  calls: readonly { id: string; parentId: string | null; traceId: string }[],
  perTrace = 4,
): number {
  const ids = new Set(calls.map((c) => c.id));
  const traces = new Map<string, number>();
  for (const call of calls) {
    if (call.parentId !== null) expect(ids.has(call.parentId), `parent of ${call.id}`).toBe(true);
    traces.set(call.traceId, (traces.get(call.traceId) ?? 0) + 1);
  }
  for (const count of traces.values()) expect(count).toBe(perTrace);
  return traces.size;
}

describe('head sampling', () => {
  it('records nothing at rate 0, returns what the functions return, and counts every call sampled out', async () => {
    const { client, recorded } = sinkClient({ sampleRate: 0 });
    const root = agent();
    for (let i = 0; i < 50; i++) expect(await root(i)).toBe(i * 2 + i + 1);
    const failing = weft.op(async function failing() {
      throw new RangeError('as before');
    });
    await expect(failing()).rejects.toThrow(RangeError);
    await client.flush();
    expect(recorded()).toHaveLength(0);
    expect(client.diagnostics().sampling).toMatchObject({
      sampleRate: 0,
      sampledOutCalls: 50 * 4 + 1,
      heldCalls: 0,
    });
    expect(client.diagnostics().inFlightCalls).toBe(0);
  });

  it('gives a sampled-out trace no current call, so user code sees it untraced', async () => {
    sinkClient({ sampleRate: 0 });
    const seen: unknown[] = [];
    const inner = weft.op(function inner() {
      seen.push(weft.currentCall());
    });
    const outer = weft.op(function outer() {
      weft.withAttributes({ a: 1 }, () => inner());
    });
    outer();
    expect(seen).toEqual([undefined]);
  });

  it("makes feedback on a sampled-out call (docs/feedback.md's weft.feedback(weft.currentCall()?.id, …)) a counted no-op, never a throw", async () => {
    const { client, sink } = sinkClient({ sampleRate: 0 });
    const handler = weft.op(async function handler(question: string) {
      const answer = `echo ${question}`;
      const feedbackId = weft.feedback(weft.currentCall()?.id, { name: 'thumbs', value: true });
      return { answer, feedbackId };
    });
    expect(await handler('hi')).toEqual({ answer: 'echo hi', feedbackId: undefined });
    expect(client.feedback(undefined, { name: 'score', value: 0.5 })).toBeUndefined();
    // Bad feedback is still a bug in the caller's code, sampled or not.
    expect(() => client.feedback(undefined, { name: '', value: true })).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_FEEDBACK', field: 'name' }),
    );
    await client.flush();
    expect((sink.items as { type: string }[]).filter((item) => item.type === 'feedback')).toEqual([]);
    expect(client.diagnostics().feedback).toEqual({ unrecordedCalls: 2 });
  });

  it('records everything at rate 1 with no sampler diagnostics', async () => {
    const { client, recorded } = sinkClient({ sampleRate: 1 });
    const root = agent();
    for (let i = 0; i < 20; i++) await root(i);
    await client.flush();
    expect(expectWholeTraces(recorded())).toBe(20);
    expect(client.diagnostics().sampling.sampledOutCalls).toBe(0);
  });

  it('keeps whole traces at a fractional rate, exactly those whose trace id the rule keeps', async () => {
    const { client, recorded } = sinkClient({ sampleRate: 0.5 });
    const root = agent();
    // Children inside withAttributes too: the "not sampled" mark must survive a new frame.
    await Promise.all(Array.from({ length: 400 }, (_, i) => weft.withAttributes({ i }, () => root(i))));
    await client.flush();
    const calls = recorded();
    const traces = expectWholeTraces(calls);
    for (const call of calls) expect(isTraceSampled(call.traceId, 0.5)).toBe(true);
    expect(calls.length + client.diagnostics().sampling.sampledOutCalls).toBe(1600);
    // Random ids: 400 traces at 0.5 have a standard deviation of 10; 100 either way is 10 of them.
    expect(traces).toBeGreaterThan(100);
    expect(traces).toBeLessThan(300);
  });

  it('leaves no orphan child on the real server at a fractional rate', async () => {
    const server = await startTestServer();
    const client = weft.init({
      project: 'sampling-server',
      url: server.url,
      outbox: false,
      handleExit: false,
      sampleRate: 0.3,
    });
    const root = agent();
    await Promise.all(Array.from({ length: 200 }, (_, i) => root(i)));
    await client.flush();
    const calls = await listServerCalls(server.url, 'sampling-server');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.length % 4).toBe(0);
    expectWholeTraces(calls);
    expect(calls.length + client.diagnostics().sampling.sampledOutCalls).toBe(800);
  });
});

describe('tail rules', () => {
  it('keeps a whole trace where a child failed (even though the root caught it), drops the others', async () => {
    const { client, recorded } = sinkClient({ sampleRate: 0, keep: { errors: true } });
    const flaky = weft.op(async function flaky(fail: boolean) {
      if (fail) throw new Error('tool failed');
      return 'ok';
    });
    const root = weft.op(async function root(fail: boolean) {
      const a = await flaky(false);
      try {
        return [a, await flaky(fail)];
      } catch {
        return [a, 'recovered'];
      }
    });
    for (let i = 0; i < 10; i++) await root(i === 7);
    await client.flush();
    const calls = recorded();
    expect(calls).toHaveLength(3);
    expectWholeTraces(calls, 3);
    const failed = calls.filter((c) => c.summary?.status === 'error');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.inputs).toEqual({ fail: true });
    expect(calls.find((c) => c.parentId === null)?.inputs).toEqual({ fail: true });
    expect(client.diagnostics().sampling).toMatchObject({
      tailKeptTraces: 1,
      tailDroppedTraces: 9,
      sampledOutCalls: 27,
      heldCalls: 0,
    });
  });

  it('hands onFinish the output of a call whose trace it drops (the output is given back after)', async () => {
    const { client, recorded } = sinkClient({ sampleRate: 0, keep: { errors: true } });
    const seen: unknown[] = [];
    const reply = weft.op(async (n: number) => ({ reply: `answer ${n}`, tokens: n }), {
      name: 'reply',
      onFinish: (call) => {
        seen.push(call.output);
      },
    });
    const root = weft.op(async (n: number) => ({ first: await reply(n) }), {
      name: 'root',
      onFinish: (call) => {
        seen.push(call.output);
      },
    });
    await root(1);
    await client.flush();
    expect(recorded()).toHaveLength(0);
    expect(seen).toEqual([{ reply: 'answer 1', tokens: 1 }, { first: { reply: 'answer 1', tokens: 1 } }]);
  });

  it('keeps a trace whose root was slower than slowerThanMs, driven by a fake clock', async () => {
    const { client, recorded } = sinkClient({ sampleRate: 0, keep: { slowerThanMs: 1_000 } });
    vi.useFakeTimers({ toFake: ['performance'] });
    const step = weft.op(async function step() {
      return 1;
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const root = weft.op(async function root(waits: boolean) {
      await step();
      if (waits) await gate;
      return waits;
    });
    await root(false); // fast: dropped
    const slow = root(true);
    vi.advanceTimersByTime(1_500);
    release();
    await slow;
    vi.useRealTimers();
    await client.flush();
    const calls = recorded();
    expectWholeTraces(calls, 2);
    expect(calls.find((c) => c.parentId === null)?.summary?.latencyMs).toBeGreaterThanOrEqual(1_500);
    expect(client.diagnostics().sampling).toMatchObject({
      tailKeptTraces: 1,
      tailDroppedTraces: 1,
      sampledOutCalls: 2,
    });
  });

  it('drops a held trace past maxCallsPerTrace and records none of it, even when it errs', async () => {
    const { client, recorded } = sinkClient({ sampleRate: 0, keep: { errors: true, maxCallsPerTrace: 5 } });
    const child = weft.op(async function child(i: number) {
      if (i === 9) throw new Error('late failure');
      return i;
    });
    const root = weft.op(async function root() {
      return Promise.allSettled(Array.from({ length: 10 }, (_, i) => child(i)));
    });
    await root();
    await client.flush();
    expect(recorded()).toHaveLength(0);
    expect(client.diagnostics().sampling).toMatchObject({
      tailOverflowTraces: 1,
      tailKeptTraces: 0,
      sampledOutCalls: 11,
      heldCalls: 0,
    });
  });

  it('bounds calls held over all traces with maxHeldCalls; traces under the bound are still kept', async () => {
    const { client, recorded } = sinkClient({ sampleRate: 0, keep: { errors: true, maxHeldCalls: 6 } });
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const child = weft.op(async function child() {
      await gate;
      throw new Error('kept');
    });
    const root = weft.op(async function root() {
      return Promise.allSettled([child(), child()]);
    });
    // Three traces of 3 calls held at once: the third passes 6 and is dropped.
    const runs = [root(), root(), root()];
    expect(client.diagnostics().sampling.heldCalls).toBe(6);
    open();
    await Promise.all(runs);
    await client.flush();
    expectWholeTraces(recorded(), 3);
    expect(recorded()).toHaveLength(6);
    expect(client.diagnostics().sampling).toMatchObject({
      tailOverflowTraces: 1,
      tailKeptTraces: 2,
      heldCalls: 0,
      sampledOutCalls: 3,
    });
  });
});

describe('options', () => {
  it.each([
    [{ sampleRate: 1.5 }, 'sampleRate'],
    [{ sampleRate: -0.1 }, 'sampleRate'],
    [{ sampleRate: '0.5' }, 'sampleRate'],
    [{ sampleRate: 0.5, keep: {} }, 'keep'],
    [{ sampleRate: 0.5, keep: { errors: true, maxCallsPerTrace: 0 } }, 'keep.maxCallsPerTrace'],
    [{ sampleRate: 0.5, keep: { slowerThanMs: -1 } }, 'keep.slowerThanMs'],
  ])('rejects %j naming %s', (options, option) => {
    let thrown: unknown;
    try {
      createClient({ project: 'p', outbox: false, handleExit: false, ...(options as weft.WeftOptions) });
    } catch (error) {
      thrown = error;
    }
    expect(InvalidOptionsError.isInstance(thrown)).toBe(true);
    expect((thrown as { code: string; option: string }).code).toBe('WEFT_INVALID_OPTIONS');
    expect((thrown as { option: string }).option).toBe(option);
  });
});
