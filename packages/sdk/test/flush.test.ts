import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { resetWeft } from '../src/testing/index.js';
import { type HoldProxy, startHoldProxy } from './support/hold-proxy.js';
import { startTestServer, type TestServer } from '@weft/test-server';

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
afterEach(async () => {
  proxy.resume();
  await resetWeft();
});

async function countCalls(
  client: weft.WeftClient,
  options: Parameters<weft.WeftClient['getCalls']>[0] = {},
): Promise<number> {
  let n = 0;
  for await (const page of client.getCalls({ pageSize: 1_000, ...options }).pages()) n += page.length;
  return n;
}

describe('flush()', () => {
  it('resolves only when the read API returns all of 10,000 concurrent calls', async () => {
    const client = weft.init({ project: 'flush-10k', url: server.url, outbox: false, handleExit: false });
    const step = weft.op(async function step(i: number) {
      await null;
      return { i, text: `answer ${i}` };
    });
    await Promise.all(Array.from({ length: 10_000 }, (_, i) => step(i)));
    const result = await client.flush();
    expect(result).toMatchObject({ sent: 10_000, failed: 0, spilled: 0, pending: 0 });
    expect(await countCalls(client)).toBe(10_000);
  });

  it('with timeoutMs against a paused server, resolves at its deadline with pending > 0', async () => {
    proxy.pause();
    const client = weft.init({ project: 'flush-deadline', url: proxy.url, outbox: false, handleExit: false });
    const step = client.op(function step(i: number) {
      return i;
    });
    for (let i = 0; i < 100; i++) step(i);
    // Resolving at all proves the deadline: nothing can be acknowledged while the proxy holds every request.
    const result = await client.flush({ timeoutMs: 250 });
    expect(proxy.answered).toBe(0);
    expect(result.pending).toBeGreaterThan(0);
    expect(result.sent).toBe(0);
    proxy.resume();
    const after = await client.flush();
    expect(after).toMatchObject({ sent: 100, pending: 0 });
  });

  it('is not starved by a steady stream of new calls', async () => {
    const client = weft.init({ project: 'flush-stream', url: server.url, outbox: false, handleExit: false });
    const tick = client.op(function tick(i: number) {
      return { i };
    });
    let made = 0;
    let running = true;
    const stream = () => {
      if (!running) return;
      for (let k = 0; k < 20; k++) tick(made++);
      setImmediate(stream);
    };
    stream();
    await new Promise((r) => setTimeout(r, 50));
    const before = made;
    const result = await client.flush();
    const madeDuringFlush = made - before;
    running = false;
    // It covered everything made before it, and new calls kept arriving while it waited.
    expect(result.sent).toBeGreaterThanOrEqual(before);
    expect(result.pending).toBe(0);
    expect(madeDuringFlush).toBeGreaterThan(0);
    const rest = await client.flush();
    expect(result.sent + rest.sent).toBe(made);
    expect(await countCalls(client)).toBe(made);
  });

  it('reports each call to exactly one of several concurrent flushes', async () => {
    const client = weft.init({
      project: 'flush-concurrent',
      url: server.url,
      outbox: false,
      handleExit: false,
    });
    const step = client.op((i: number) => i, { name: 'step' });
    for (let i = 0; i < 300; i++) step(i);
    const first = client.flush();
    for (let i = 0; i < 200; i++) step(i);
    const second = client.flush();
    const [a, b] = await Promise.all([first, second]);
    expect(a.sent).toBeGreaterThanOrEqual(300);
    expect(a.sent + b.sent).toBe(500);
  });

  it('covers chained work: nested objects are stored when it resolves', async () => {
    const client = weft.init({
      project: 'flush-objects',
      url: server.url,
      outbox: false,
      handleExit: false,
      concurrency: 1,
    });
    class Doc extends weft.WeftObject {
      constructor(
        public readonly text: string,
        public readonly child?: Doc,
      ) {
        super();
      }
    }
    const make = client.op(function make(i: number) {
      return new Doc(`outer ${i}`, new Doc(`inner ${i}`));
    });
    for (let i = 0; i < 50; i++) make(i);
    const result = await client.flush();
    expect(result).toMatchObject({ sent: 50, objects: 100, objectsFailed: 0, pending: 0 });
    const [call] = await client.getCalls({ limit: 1 }).toArray();
    const outer = (await client.get(call?.output as string)) as { text: string; child: string };
    expect(outer.text).toMatch(/^outer /);
    expect(await client.get(outer.child)).toEqual({ text: outer.text.replace('outer', 'inner') });
  });

  it('shutdown flushes, is idempotent, and later calls run untraced', async () => {
    const client = weft.init({
      project: 'flush-shutdown',
      url: server.url,
      outbox: false,
      handleExit: false,
    });
    const step = client.op((i: number) => i * 2, { name: 'step' });
    for (let i = 0; i < 10; i++) step(i);
    const [a, b] = await Promise.all([client.shutdown(), client.shutdown()]);
    expect(a).toBe(b);
    expect(a.sent).toBe(10);
    expect(step(21)).toBe(42);
    expect(client.closed).toBe(true);
  });
});
