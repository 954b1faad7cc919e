import type { CallItem } from '@weft/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { createClient, resetWeft } from '../src/testing/index.js';
import { type HoldProxy, startHoldProxy } from './support/hold-proxy.js';
import { memorySink } from './support/memory-sink.js';
import { startTestServer, type TestServer } from '@weft/test-server';

afterEach(async () => {
  await resetWeft();
});

function sinkClient(project = 'contract') {
  const sink = memorySink();
  const client = createClient({ project, outbox: false, handleExit: false }, () => sink);
  return { client, sink };
}

const completes = (items: CallItem[]) =>
  items.filter((i): i is Extract<CallItem, { type: 'complete' }> => i.type === 'complete');

describe('the caller contract', () => {
  it('keeps `this`, name and length', () => {
    const { client } = sinkClient();
    class Counter {
      count = 1;
      add = client.op(function add(this: Counter, a: number, b = 2) {
        return this.count + a + b;
      });
    }
    const counter = new Counter();
    expect(counter.add(3)).toBe(6);
    expect(counter.add.name).toBe('add');
    expect(counter.add.length).toBe(1);
  });

  it('finishCall returns before any deferred work runs', async () => {
    const { client, sink } = sinkClient();
    const f = client.op(function work(x: number) {
      return { x };
    });
    f(1);
    // Registered for flush, but nothing walked, encoded or handed over yet.
    expect(client.diagnostics()).toMatchObject({ pendingUnits: 1, pipeline: { scheduled: 0, finalized: 0 } });
    await Promise.resolve();
    await Promise.resolve();
    expect(client.diagnostics().pipeline.scheduled).toBe(0);
    expect(sink.items).toHaveLength(0);
    await client.flush();
    expect(sink.items).toHaveLength(1);
  });

  it("resolves the user's promise in no more event-loop turns than untraced", async () => {
    const { client } = sinkClient();
    /** Event-loop turns (setImmediate ticks) that pass while `run` settles. */
    const turns = async (run: () => Promise<unknown>) => {
      let count = 0;
      let stop = false;
      const tick = () => {
        if (stop) return;
        count++;
        setImmediate(tick);
      };
      setImmediate(tick);
      await run();
      stop = true;
      return count;
    };
    const bodies: [string, () => Promise<unknown>][] = [
      ['resolved at once', async () => 1],
      ['one await', async () => await Promise.resolve(2)],
      ['one turn', () => new Promise((r) => setImmediate(() => r(3)))],
      [
        'three turns',
        async () => {
          for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
          return 4;
        },
      ],
      ['nested traced calls', async () => (await Promise.all([1, 2, 3].map(async (n) => n))).length],
    ];
    for (const [label, body] of bodies) {
      const plain = await turns(body);
      const traced = await turns(client.op(body, { name: label.replace(/ /g, '-') }));
      expect({ label, traced }).toEqual({ label, traced: plain });
    }
  });

  it('records inputs and outputs as they were, even when the caller mutates them afterwards', async () => {
    const { client, sink } = sinkClient();
    const llm = client.op(async function chat(messages: { role: string; content: string }[]) {
      return { role: 'assistant', content: `reply ${messages.length}`, tags: ['a'] };
    });
    const history = [{ role: 'user', content: 'hi' }];
    for (let turn = 0; turn < 3; turn++) {
      const reply = await llm(history);
      reply.tags.push('mutated'); // the output changes after return
      history.push(reply); // the very array that was the input grows
      history[0]!.content = `changed ${turn}`; // and an input element changes
    }
    await client.flush();
    const calls = completes(sink.items);
    expect(calls.map((c) => (c.inputs.messages as unknown[]).length)).toEqual([1, 2, 3]);
    expect(calls.map((c) => (c.inputs.messages as { content: string }[])[0]?.content)).toEqual([
      'hi',
      'changed 0',
      'changed 1',
    ]);
    expect(calls.map((c) => (c.output as { tags: string[] }).tags)).toEqual([['a'], ['a'], ['a']]);
  });

  it('names inputs from the parameter list, records a destructured object argument as is', async () => {
    const { client, sink } = sinkClient();
    client.op(function positional(query: string, k = 3, ...rest: number[]) {
      return [query, k, rest];
    })('q', 5, 6, 7);
    client.op(function destructured({ query, k }: { query: string; k: number }) {
      return query.repeat(k);
    })({ query: 'ab', k: 2 });
    client.op((a: number, b: number) => a + b, { name: 'arrow' })(1, 2);
    await client.flush();
    expect(completes(sink.items).map((c) => c.inputs)).toEqual([
      { query: 'q', k: 5, rest: [6, 7] },
      { query: 'ab', k: 2 },
      { a: 1, b: 2 },
    ]);
  });

  it('runs user hooks on the caller: postprocess, displayName, attributes, onFinish', async () => {
    const { client, sink } = sinkClient();
    const finished: weft.FinishedCall[] = [];
    const f = client.op(
      function withHooks(_secretClient: object, q: string) {
        return { answer: q.toUpperCase(), raw: 'x'.repeat(10) };
      },
      {
        postprocessInputs: ({ _secretClient: _drop, ...rest }) => rest,
        postprocessOutput: (out) => ({ answer: (out as { answer: string }).answer }),
        displayName: (inputs) => `ask ${inputs.q}`,
        attributes: { env: 'test' },
        onFinish: (call) => finished.push(call),
      },
    );
    const out = weft.withAttributes({ user: 'u1', env: 'outer' }, () => f({ conn: 1 }, 'hello'));
    expect(out).toEqual({ answer: 'HELLO', raw: 'xxxxxxxxxx' });
    expect(finished[0]?.summary.status).toBe('success');
    await client.flush();
    const [call] = completes(sink.items);
    expect(call).toMatchObject({
      inputs: { q: 'hello' },
      output: { answer: 'HELLO' },
      displayName: 'ask hello',
      attributes: { user: 'u1', env: 'test' },
    });
    const hookError = new Error('hook failed');
    const g = client.op(() => 1, {
      onFinish: () => {
        throw hookError;
      },
    });
    expect(() => g()).toThrow(hookError);
  });

  it('records exceptions with name, message, stack and cause chain, rethrown as the same object', async () => {
    const { client, sink } = sinkClient();
    const root = new TypeError('root cause');
    const error = new Error('outer', { cause: new RangeError('middle', { cause: root }) });
    const f = client.op(async function fails() {
      throw error;
    });
    await expect(f()).rejects.toBe(error);
    await client.flush();
    const [call] = completes(sink.items);
    expect(call?.exception).toMatchObject({
      name: 'Error',
      message: 'outer',
      cause: { name: 'RangeError', message: 'middle', cause: { name: 'TypeError', message: 'root cause' } },
    });
    expect(call?.exception?.stack).toContain('outer');
    expect(call?.summary?.status).toBe('error');
  });

  it('runs untraced without init, with one warning', async () => {
    expect(weft.getDefaultClient()).toBeUndefined();
    const warnings: string[] = [];
    const listener = (w: Error) => warnings.push(w.message);
    process.on('warning', listener);
    try {
      const f = weft.op((x: number) => x * 2);
      expect(f(2)).toBe(4);
      expect(f(3)).toBe(6);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.removeListener('warning', listener);
    }
    expect(warnings.filter((w) => w.includes('weft.init'))).toHaveLength(1);
  });

  it('validates init options with errors naming the option', () => {
    const codeOf = (options: weft.WeftOptions) => {
      try {
        weft.init({ outbox: false, handleExit: false, ...options });
        return undefined;
      } catch (error) {
        return { code: (error as weft.WeftError).code, option: (error as { option?: string }).option };
      }
    };
    expect(codeOf({ project: 'has space' })).toEqual({ code: 'WEFT_INVALID_OPTIONS', option: 'project' });
    expect(codeOf({ project: 'p', concurrency: 0 })).toEqual({
      code: 'WEFT_INVALID_OPTIONS',
      option: 'concurrency',
    });
    expect(codeOf({ project: 'p', url: 'ftp://x' })).toEqual({ code: 'WEFT_INVALID_OPTIONS', option: 'url' });
    // Past the walkers' limit: refused at init (it used to pass, and then every call's values became an error marker).
    expect(codeOf({ project: 'p', maxDepth: 1_000 })).toEqual({
      code: 'WEFT_INVALID_OPTIONS',
      option: 'maxDepth',
    });
    expect(codeOf({ project: 'p', concurency: 2 } as weft.WeftOptions)).toEqual({
      code: 'WEFT_INVALID_OPTIONS',
      option: 'concurency',
    });
  });
});

describe('hostile values and a failing server never reach user code', () => {
  let server: TestServer;
  let proxy: HoldProxy;
  beforeAll(async () => {
    server = await startTestServer({ register: false });
    proxy = await startHoldProxy(server.url);
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
  });

  const hostile = (): Record<string, unknown> => {
    const cycle: Record<string, unknown> = { name: 'cycle' };
    cycle.self = cycle;
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    return {
      cycle,
      big: 10n ** 30n,
      sym: Symbol('s'),
      fn: () => 1,
      getter: Object.defineProperty({}, 'boom', {
        enumerable: true,
        get: () => {
          throw new Error('getter');
        },
      }),
      trap: new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('trap');
          },
          get: () => {
            throw new Error('trap');
          },
        },
      ),
      revoked,
      toJSON: {
        toJSON: () => {
          throw new Error('toJSON');
        },
      },
      date: new Date(0),
      error: new Error('e', { cause: new Error('c') }),
      bytes: Buffer.from('hello'),
      map: new Map([[1, { a: 1 }]]),
      set: new Set([1, 2]),
      surrogate: 'a\uD800b',
      huge: 'x'.repeat(10 * 1024 * 1024),
      deep,
      nan: Number.NaN,
    };
  };

  it('hostile inputs and outputs are recorded in safe forms and the rest of the call is intact', async () => {
    const client = weft.init({ project: 'hostile', url: server.url, outbox: false, handleExit: false });
    const values = hostile();
    const echoOp = weft.op(function echo(value: unknown, label: string) {
      return { value, label };
    });
    for (const [key, value] of Object.entries(values)) {
      const out = echoOp(value, key);
      expect(out.value).toBe(value);
    }
    const flushed = await client.flush();
    expect(flushed).toMatchObject({ sent: Object.keys(values).length, failed: 0, pending: 0 });
    const calls = await client.getCalls({ opName: 'echo' }).toArray();
    expect(calls.map((c) => c.inputs.label).sort()).toEqual(Object.keys(values).sort());
    for (const call of calls) expect((call.output as { label: string }).label).toBe(call.inputs.label);
  });

  it('a server that is down, slow or answers 500 never throws into user code, and flush returns by its deadline', async () => {
    const f = (client: weft.WeftClient) =>
      client.op(async function step(i: number) {
        return { i };
      });
    // Down: nothing listens on that port.
    const down = weft.init({
      project: 'down',
      url: 'http://127.0.0.1:9',
      outbox: false,
      handleExit: false,
      maxAttempts: 2,
    });
    // Slow: the proxy holds every request.
    proxy.pause();
    const slow = weft.init({ project: 'slow', url: proxy.url, outbox: false, handleExit: false });
    const results = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) => f(down)(i)),
      ...Array.from({ length: 50 }, (_, i) => f(slow)(i)),
    ]);
    expect(results).toHaveLength(100);
    const slowFlush = await slow.flush({ timeoutMs: 300 });
    expect(slowFlush.pending).toBeGreaterThan(0);
    const downFlush = await down.flush({ timeoutMs: 20_000 });
    expect(downFlush.sent).toBe(0);
    proxy.resume();
    // 500: every request is answered with an error.
    proxy.respond(500);
    const failing = weft.init({
      project: 'failing',
      url: proxy.url,
      outbox: false,
      handleExit: false,
      maxAttempts: 2,
    });
    const values = await Promise.all(Array.from({ length: 20 }, (_, i) => f(failing)(i)));
    expect(values.map((v) => v.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const failed = await failing.flush({ timeoutMs: 20_000 });
    expect(failed.sent).toBe(0);
    proxy.respond(undefined);
  });
});
