import type { CallItem } from '@weft/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { createClient, resetWeft } from '../src/testing/index.js';
import { memorySink } from './support/memory-sink.js';

afterEach(async () => {
  await resetWeft();
});

type Ended = Extract<CallItem, { type: 'complete' }>;

function sinkClient(extra: weft.WeftOptions = {}) {
  const sink = memorySink();
  const client = createClient({ project: 'nesting', outbox: false, handleExit: false, ...extra }, () => sink);
  const ended = () => sink.items.filter((i): i is Ended => i.type === 'complete');
  return { client, sink, ended };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('nesting through AsyncLocalStorage', () => {
  it('gets parent, child and trace ids right for Promise.all of 100 nested calls with interleaved awaits', async () => {
    const { client, ended } = sinkClient();
    const leaf = weft.op(async function leafOp(root: number, i: number) {
      await turn();
      expect(weft.currentCall()?.opName).toBe('leafOp');
      return `${root}.${i}`;
    });
    const middle = weft.op(async function middleOp(root: number, i: number) {
      if (i % 2) await turn();
      const a = await leaf(root, i);
      await null;
      const b = await leaf(root, i + 1000);
      return [a, b];
    });
    const top = weft.op(async function topOp(root: number) {
      await turn();
      return Promise.all(Array.from({ length: 100 }, (_, i) => middle(root, i)));
    });
    await Promise.all([top(1), top(2), top(3)]);
    await client.flush();
    const calls = ended();
    expect(calls).toHaveLength(3 * (1 + 100 + 200));
    const byId = new Map(calls.map((c) => [c.id, c]));
    for (const call of calls) {
      const root = call.inputs.root;
      if (call.opName === 'topOp') {
        expect(call.parentId).toBeNull();
        expect(call.traceId).toBe(call.id);
        expect(call.summary?.childCounts).toEqual({ success: 100, error: 0 });
        continue;
      }
      const parent = byId.get(call.parentId as string);
      expect(parent?.opName).toBe(call.opName === 'middleOp' ? 'topOp' : 'middleOp');
      expect(parent?.inputs.root).toBe(root);
      if (call.opName === 'leafOp')
        expect([call.inputs.i, (call.inputs.i as number) - 1000]).toContain(parent?.inputs.i);
      expect(call.traceId).toBe(parent?.traceId);
    }
  });

  it('withAttributes applies to calls started inside it; currentCall is undefined outside calls', async () => {
    const { client, ended } = sinkClient();
    const f = weft.op(async function tagged() {
      return weft.currentCall()?.attributes;
    });
    expect(weft.currentCall()).toBeUndefined();
    const seen = await weft.withAttributes({ session: 's1' }, () =>
      weft.withAttributes({ user: 'u' }, () => f()),
    );
    expect(seen).toEqual({ session: 's1', user: 'u' });
    await client.flush();
    expect(ended()[0]?.attributes).toEqual({ session: 's1', user: 'u' });
  });
});

describe('streams', () => {
  it('a sync generator: the call ends when it ends, chunks joined once', async () => {
    const { client, ended } = sinkClient();
    const inner = weft.op(function innerOp(x: string) {
      return x.toUpperCase();
    });
    const gen = weft.op(function* words(n: number) {
      for (let i = 0; i < n; i++) yield inner(`w${i}`);
    });
    expect([...gen(3)]).toEqual(['W0', 'W1', 'W2']);
    await client.flush();
    const calls = ended();
    const streamed = calls.find((c) => c.opName === 'words');
    expect(streamed?.output).toBe('W0W1W2');
    // Calls made by the generator body are its children.
    expect(calls.filter((c) => c.opName === 'innerOp').every((c) => c.parentId === streamed?.id)).toBe(true);
  });

  it('an async generator with usage chunks; abandoning it with break ends the call', async () => {
    const { client, ended } = sinkClient();
    const stream = weft.op(async function* chat() {
      yield { delta: 'Hel' };
      await turn();
      yield { delta: 'lo', usage: { input_tokens: 5, output_tokens: 2 }, model: 'claude' };
      yield { delta: '!' };
    });
    const got: unknown[] = [];
    for await (const chunk of stream()) got.push(chunk);
    for await (const chunk of stream()) {
      got.push(chunk);
      break;
    }
    await client.flush();
    const calls = ended();
    expect(calls).toHaveLength(2);
    expect(calls[0]?.output).toEqual([
      { delta: 'Hel' },
      { delta: 'lo', usage: { input_tokens: 5, output_tokens: 2 }, model: 'claude' },
      { delta: '!' },
    ]);
    expect(calls[0]?.summary?.usage).toEqual({
      claude: { requests: 1, inputTokens: 5, outputTokens: 2, totalTokens: 7 },
    });
    expect(calls[1]?.output).toEqual([{ delta: 'Hel' }]);
    expect(calls[1]?.summary?.status).toBe('success');
  });

  it('an error thrown inside a stream ends the call as an error and reaches the consumer unchanged', async () => {
    const { client, ended } = sinkClient();
    const boom = new Error('stream broke');
    const stream = weft.op(async function* broken() {
      yield 'a';
      throw boom;
    });
    const consume = async () => {
      for await (const _ of stream()) {
        // consume
      }
    };
    await expect(consume()).rejects.toBe(boom);
    await client.flush();
    // What was streamed before the error is kept with the exception.
    expect(ended()[0]).toMatchObject({
      output: 'a',
      summary: { status: 'error' },
      exception: { message: 'stream broke' },
    });
  });

  it('an async function resolving to an async iterable (an LLM SDK stream) is traced until the stream ends', async () => {
    const { client, ended } = sinkClient();
    const sdkStream = {
      controller: 'kept',
      async *[Symbol.asyncIterator]() {
        yield 'x';
        yield 'y';
      },
    };
    const create = weft.op(async function createStream() {
      return sdkStream;
    });
    const s = await create();
    expect(s.controller).toBe('kept');
    const parts: string[] = [];
    for await (const p of s) parts.push(p);
    expect(parts).toEqual(['x', 'y']);
    await client.flush();
    expect(ended()[0]?.output).toBe('xy');
  });
});

describe('decorators and usage', () => {
  it('@weft.op() traces class methods with `this`, named Class.method', async () => {
    const { client, ended } = sinkClient();
    class Agent {
      constructor(readonly prefix: string) {}

      @weft.op()
      async answer(question: string) {
        return `${this.prefix}: ${await this.lookup(question)}`;
      }

      @weft.op({ name: 'lookup-tool' })
      lookup(q: string) {
        return q.length;
      }
    }
    const agent = new Agent('A');
    expect(await agent.answer('four')).toBe('A: 4');
    expect(agent.answer.name).toBe('answer');
    await client.flush();
    const calls = ended();
    const answer = calls.find((c) => c.opName === 'Agent.answer');
    expect(answer?.inputs).toEqual({ question: 'four' });
    expect(calls.find((c) => c.opName === 'lookup-tool')?.parentId).toBe(answer?.id);
  });

  it('sums token usage per model and rolls it up from children into parents', async () => {
    const { client, ended } = sinkClient();
    const openai = weft.op(async function gpt(n: number) {
      return {
        model: 'gpt-4o',
        usage: { prompt_tokens: 10 * n, completion_tokens: n, total_tokens: 11 * n },
      };
    });
    const anthropic = weft.op(async function claude() {
      return { model: 'claude-3', usage: { input_tokens: 7, output_tokens: 3 } };
    });
    const tool = weft.op(async function toolOp() {
      throw new Error('tool failed');
    });
    const inner = weft.op(async function innerStep() {
      await openai(2);
      return anthropic();
    });
    const agent = weft.op(async function agentStep() {
      await openai(1);
      await inner();
      await tool().catch(() => undefined);
      return 'done';
    });
    await agent();
    await client.flush();
    const calls = ended();
    const step = calls.find((c) => c.opName === 'agentStep');
    expect(step?.summary?.usage).toEqual({
      // gpt-4o is priced ($2.50 in, $10 out per million); 'claude-3' names no model of the table.
      'gpt-4o': { requests: 2, inputTokens: 30, outputTokens: 3, totalTokens: 33, costUsd: 0.000105 },
      'claude-3': { requests: 1, inputTokens: 7, outputTokens: 3, totalTokens: 10 },
    });
    expect(step?.summary?.costUsd).toBe(0.000105);
    expect(step?.summary?.childCounts).toEqual({ success: 2, error: 1 });
    expect(calls.find((c) => c.opName === 'innerStep')?.summary?.usage).toEqual({
      'gpt-4o': { requests: 1, inputTokens: 20, outputTokens: 2, totalTokens: 22, costUsd: 0.00007 },
      'claude-3': { requests: 1, inputTokens: 7, outputTokens: 3, totalTokens: 10 },
    });
  });

  it('counts usage once when an op returns its children’s total as its own usage field', async () => {
    const { client, ended } = sinkClient();
    const llm = weft.op(async function llmCall(n: number) {
      return {
        model: 'gpt-4o',
        usage: { prompt_tokens: 10 * n, completion_tokens: n, total_tokens: 11 * n },
      };
    });
    // An agent step that sums what its model calls spent and returns it, with no model of its own.
    const step = weft.op(async function summingStep() {
      const replies = [await llm(1), await llm(2)];
      const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
      for (const reply of replies) {
        usage.prompt_tokens += reply.usage.prompt_tokens;
        usage.completion_tokens += reply.usage.completion_tokens;
        usage.total_tokens += reply.usage.total_tokens;
      }
      return { answer: 'done', usage };
    });
    // A leaf op with no traced children still reports the usage its output carries.
    const leaf = weft.op(async function leafModel() {
      return { model: 'claude-3', usage: { input_tokens: 7, output_tokens: 3 } };
    });
    await step();
    await leaf();
    await client.flush();
    const calls = ended();
    expect(calls.find((c) => c.opName === 'summingStep')?.summary?.usage).toEqual({
      'gpt-4o': { requests: 2, inputTokens: 30, outputTokens: 3, totalTokens: 33, costUsd: 0.000105 },
    });
    expect(calls.find((c) => c.opName === 'leafModel')?.summary?.usage).toEqual({
      'claude-3': { requests: 1, inputTokens: 7, outputTokens: 3, totalTokens: 10 },
    });
  });

  it('sends the start of a call still running after startDelayMs, then its end', async () => {
    const sink = memorySink();
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let startSeen!: () => void;
    const started = new Promise<void>((r) => {
      startSeen = r;
    });
    const add = sink.add.bind(sink);
    sink.add = (record) => {
      add(record);
      if (sink.items.at(-1)?.type === 'start') startSeen();
    };
    const client = createClient(
      { project: 'nesting', outbox: false, handleExit: false, startDelayMs: 30 },
      () => sink,
    );
    const long = client.op(async function longRun(task: string) {
      await gate;
      return `${task} done`;
    });
    const quick = client.op(function quickOp() {
      return 1;
    });
    const result = long('research');
    quick();
    await started; // the start arrived while the call still runs
    expect(sink.items.filter((i) => i.type === 'start')).toMatchObject([
      { opName: 'longRun', inputs: { task: 'research' } },
    ]);
    release();
    expect(await result).toBe('research done');
    await client.flush();
    const types = sink.items.map((i) => `${i.type}`);
    expect(types.sort()).toEqual(['complete', 'end', 'start']);
    expect(sink.items.find((i) => i.type === 'end')).toMatchObject({
      output: 'research done',
      summary: { status: 'success' },
    });
  });
});
