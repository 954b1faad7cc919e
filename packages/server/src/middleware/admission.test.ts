import type { CallItem } from '@weft/protocol';
import { routes } from '@weft/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../app/index.js';
import { SqliteStorage } from '../storage/sqlite/sqlite-storage.js';

/** A SQLite storage whose call writes wait until the test lets them go. */
function gatedStorage() {
  const storage = new SqliteStorage({ path: ':memory:' });
  const ingest = storage.ingestCalls.bind(storage);
  let writes = 0;
  let entered: () => void = () => {};
  const firstWrite = new Promise<void>((resolve) => (entered = resolve));
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  storage.ingestCalls = async (project: string, items: readonly CallItem[]) => {
    writes++;
    entered();
    await gate;
    return ingest(project, items);
  };
  return { storage, firstWrite, open, writes: () => writes };
}

function batch(n: number): string {
  const id = `0190a5f0-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
  return JSON.stringify({
    project: 'gated',
    items: [
      {
        type: 'complete',
        id,
        traceId: id,
        parentId: null,
        opName: 'op',
        startedAt: 1,
        endedAt: 2,
        inputs: {},
      },
    ],
  });
}

describe('admission', () => {
  it('regression: a client that gave up on a slow write freed its slot while the write went on; now the slot is held until the write ends', async () => {
    const { storage, firstWrite, open, writes } = gatedStorage();
    const app = createApp({ storage, uiDir: false, maxRequestsInFlight: 1 });
    // The server's side of the first request's connection closing (the only request past admission until then).
    const aborted = new Promise<void>((resolve) =>
      app.addHook('onRequest', (_request, reply, done) => {
        reply.raw.once('close', () => resolve());
        done();
      }),
    );
    let answer = () => {};
    app.addHook('onSend', (_request, _reply, payload, done) => {
      answer();
      done(null, payload);
    });
    onTestFinished(async () => {
      open();
      await app.close();
      await storage.close();
    });
    const url = `${await app.listen({ host: '127.0.0.1', port: 0 })}${routes.callBatch()}`;
    const post = (body: string, signal?: AbortSignal) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal });

    // The first batch reaches storage, which holds it; its client times out and goes.
    const giveUp = new AbortController();
    const first = post(batch(1), giveUp.signal).catch(() => 'aborted');
    await firstWrite;
    giveUp.abort();
    expect(await first).toBe('aborted');
    await aborted;

    // Its write still runs: a second batch (the client's re-send) is refused, not written beside it.
    const second = await post(batch(2));
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe('WEFT_OVERLOADED');
    expect(writes()).toBe(1);

    // Once the first write ends, the slot is free again.
    const answered = new Promise<void>((resolve) => (answer = resolve));
    open();
    await answered;
    const third = await post(batch(3));
    expect(third.status).toBe(200);
    expect(writes()).toBe(2);
  });

  it('answers reads while ingest is at its limit', async () => {
    const { storage, firstWrite, open } = gatedStorage();
    const app = createApp({ storage, uiDir: false, maxRequestsInFlight: 1 });
    onTestFinished(async () => {
      open();
      await app.close();
      await storage.close();
    });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const post = (path: string, body: string) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const held = post(routes.callBatch(), batch(1));
    await firstWrite;
    expect((await post(routes.callBatch(), batch(2))).status).toBe(503);
    const read = await post(routes.callQuery(), JSON.stringify({ project: 'gated' }));
    expect(read.status).toBe(200);
    open();
    expect((await held).status).toBe(200);
  });
});
