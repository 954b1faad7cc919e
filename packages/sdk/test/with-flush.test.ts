import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { InvalidOptionsError } from '@weft/sdk/errors';
import { resetWeft } from '../src/testing/index.js';
import { startTestServer, type TestServer } from '@weft/test-server';
import { listServerCalls, nextMessage, runChild } from './support/index.js';
import { type HoldProxy, startHoldProxy } from './support/hold-proxy.js';

const script = fileURLToPath(new URL('./fixtures/with-flush-child.ts', import.meta.url));

let server: TestServer;
let proxy: HoldProxy;
beforeAll(async () => {
  server = await startTestServer({ register: afterAll });
  proxy = await startHoldProxy(server.url);
});
afterAll(async () => {
  await proxy.close();
});
afterEach(async () => {
  proxy.resume();
  await resetWeft();
});

/**
 * Sends one event, waits for the handler's answer and freezes the process at
 * once (SIGSTOP), as Lambda does when the handler's promise resolves.
 */
async function invokeAndFreeze(child: ChildProcess, question: string) {
  const returned = nextMessage<{ result: { answer: string; traceId: string } }>(child, 'returned');
  child.send({ question });
  const { result } = await returned;
  child.kill('SIGSTOP');
  return result;
}

// Build the client for in-process tests: batches wait a minute to fill, so
// only a flush delivers them before the test looks.
const initSlow = (project: string, url = server.url) =>
  weft.init({
    project,
    url,
    outbox: false,
    handleExit: false,
    flushIntervalMs: 60_000,
    startDelayMs: 60_000,
  });

describe('withFlush in a process frozen after each invocation (SIGSTOP)', () => {
  it('has every call of each invocation on the server while the process is frozen', async () => {
    const project = 'with-flush-frozen';
    const child = await runChild(script, { args: [server.url, project, 'flushed'], ipc: true });
    await nextMessage(child.child, 'ready');

    const first = await invokeAndFreeze(child.child, 'why?');
    expect(first.answer).toBe('echo: echo: why?');
    const afterFirst = await listServerCalls(server.url, project);
    expect(afterFirst.map((c) => [c.opName, c.status, c.traceId])).toEqual([
      ['agent', 'success', first.traceId],
      ['llm', 'success', first.traceId],
      ['llm', 'success', first.traceId],
    ]);
    // The root's summary arrived whole, cost included.
    expect(afterFirst[0]?.summary?.usage?.['gpt-4o-mini']).toMatchObject({ requests: 2, inputTokens: 2_000 });
    expect(afterFirst[0]?.summary?.costUsd).toBeGreaterThan(0);

    // Thawed for the next invocation, frozen again after it.
    child.child.kill('SIGCONT');
    const second = await invokeAndFreeze(child.child, 'how?');
    const afterSecond = await listServerCalls(server.url, project);
    expect(afterSecond).toHaveLength(6);
    expect(afterSecond.filter((c) => c.traceId === second.traceId)).toHaveLength(3);
  });

  it('control: the same handler without withFlush leaves its calls unsent when the process is frozen', async () => {
    const project = 'with-flush-control';
    const child = await runChild(script, { args: [server.url, project, 'unflushed'], ipc: true });
    await nextMessage(child.child, 'ready');
    await invokeAndFreeze(child.child, 'why?');
    expect(await listServerCalls(server.url, project)).toEqual([]);
  });
});

describe('withFlush', () => {
  it('returns the handler’s result unchanged, passing its arguments and `this`, after its calls are on the server', async () => {
    const client = initSlow('with-flush-result');
    const step = weft.op(async (i: number) => i * 2, { name: 'step' });
    const result = { ok: true };
    const target = {
      name: 'target',
      handle: weft.withFlush(async function (
        this: { name: string },
        event: { n: number },
        context: { id: string },
      ) {
        await Promise.all(Array.from({ length: event.n }, (_, i) => step(i)));
        return { result, self: this.name, context: context.id };
      }),
    };
    const out = await target.handle({ n: 20 }, { id: 'ctx' });
    expect(out.result).toBe(result);
    expect(out).toMatchObject({ self: 'target', context: 'ctx' });
    expect(await listServerCalls(server.url, client.project)).toHaveLength(20);
  });

  it('flushes when the handler throws, then throws the SAME error', async () => {
    const client = initSlow('with-flush-throw');
    const step = client.op(async (i: number) => i, { name: 'step' });
    const boom = new TypeError('boom');
    const handler = client.withFlush(async () => {
      await step(1);
      await step(2);
      throw boom;
    });
    await expect(handler()).rejects.toBe(boom);
    expect(await listServerCalls(server.url, client.project)).toHaveLength(2);
  });

  it('flushes when the handler throws synchronously, and rethrows that error', async () => {
    const client = initSlow('with-flush-sync-throw');
    const step = client.op((i: number) => i, { name: 'step' });
    const boom = new Error('sync');
    const handler = client.withFlush((): number => {
      step(1);
      throw boom;
    });
    await expect(handler()).rejects.toBe(boom);
    expect(await listServerCalls(server.url, client.project)).toHaveLength(1);
  });

  it('with timeoutMs against a server that answers nothing, returns the result at the deadline', async () => {
    proxy.pause();
    const client = initSlow('with-flush-deadline', proxy.url);
    const step = client.op((i: number) => i, { name: 'step' });
    const handler = client.withFlush(
      async () => {
        for (let i = 0; i < 10; i++) step(i);
        return 'done';
      },
      { timeoutMs: 100 },
    );
    // Resolving at all proves the deadline: the proxy holds every request.
    await expect(handler()).resolves.toBe('done');
    await proxy.whenHeld(1);
    expect(proxy.answered).toBe(0);
    expect(client.diagnostics().pendingUnits).toBeGreaterThan(0);
    // Nothing was dropped at the deadline: once the server answers, a flush delivers it all.
    proxy.resume();
    expect(await client.flush()).toMatchObject({ sent: 10, pending: 0 });
    expect(await listServerCalls(server.url, client.project)).toHaveLength(10);
  });

  it('is not held up by another invocation still running in the same process', async () => {
    const client = initSlow('with-flush-concurrent');
    const step = client.op(async (label: string) => label, { name: 'step' });
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handler = client.withFlush(async (event: { label: string; wait?: Promise<void> }) => {
      await step(`${event.label}-1`);
      if (event.wait) await event.wait;
      return step(`${event.label}-2`);
    });
    const slow = handler({ label: 'slow', wait: blocked });
    // The fast invocation returns while the slow one is still inside its handler.
    await expect(handler({ label: 'fast' })).resolves.toBe('fast-2');
    const onServer = (await listServerCalls(server.url, client.project)).map((c) => c.inputs.label);
    expect(onServer).toEqual(expect.arrayContaining(['fast-1', 'fast-2']));
    expect(onServer).not.toContain('slow-2');
    release();
    await expect(slow).resolves.toBe('slow-2');
    expect(await listServerCalls(server.url, client.project)).toHaveLength(4);
  });

  it('the root export uses the default client, looked up when the handler settles', async () => {
    const handler = weft.withFlush(async () => {
      await weft.op(async () => 1, { name: 'late' })();
      return 'ok';
    });
    // Wrapped before init, as a module-level `export const handler` is.
    const client = initSlow('with-flush-default');
    await expect(handler()).resolves.toBe('ok');
    expect(await listServerCalls(server.url, client.project)).toHaveLength(1);
  });

  it('without any client, runs the handler and returns its result', async () => {
    await expect(weft.withFlush(async (x: number) => x + 1)(1)).resolves.toBe(2);
  });

  it.each([
    ['a handler that is not a function', () => weft.withFlush('handler' as never), 'handler'],
    ['a negative timeoutMs', () => weft.withFlush(async () => 1, { timeoutMs: -1 }), 'timeoutMs'],
    [
      'a timeoutMs that is not a number',
      () => weft.withFlush(async () => 1, { timeoutMs: '5s' as never }),
      'timeoutMs',
    ],
    [
      'an infinite timeoutMs',
      () => weft.withFlush(async () => 1, { timeoutMs: Number.POSITIVE_INFINITY }),
      'timeoutMs',
    ],
    ['an unknown option', () => weft.withFlush(async () => 1, { timeout: 5 } as never), 'timeout'],
  ])('rejects %s at wrap time with a typed error naming it', (_case, wrap, option) => {
    let thrown: unknown;
    try {
      wrap();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidOptionsError);
    expect(thrown).toMatchObject({ code: 'WEFT_INVALID_OPTIONS', option });
    expect((thrown as Error).message).toContain(option);
  });
});
