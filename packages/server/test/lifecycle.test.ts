import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { digestValue, routes } from '@weft/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ListenError, startServer } from '../src/index.js';
import { callIdOf, completeOf } from './support/calls.js';
import { get, post, send } from './support/http.js';
import { startTestServer, tempDir } from '@weft/test-server';

async function tempDb(): Promise<string> {
  const dir = await tempDir();
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'nested', 'weft.db');
}

describe('restart', () => {
  it('keeps calls, objects, tables and files when started again on the same database file', async () => {
    const dbPath = await tempDb();
    const first = await startServer({ port: 0, dbPath, uiDir: false });
    await post(
      first.url,
      routes.callBatch(),
      { project: 'keep', items: [completeOf(1)] },
      { format: 'msgpack' },
    );
    const value = { prompt: 'kept' };
    await post(first.url, routes.objectCreate(), {
      project: 'keep',
      name: 'p',
      value,
      digest: digestValue(value),
    });
    const table = await post(first.url, routes.tableCreate(), {
      project: 'keep',
      rows: [{ a: 1 }, { a: 2 }],
    });
    const file = await send(first.url, routes.fileCreate('keep'), {
      method: 'POST',
      body: Buffer.from('bytes'),
      headers: { 'content-type': 'application/octet-stream' },
    });
    await first.close();

    const second = await startServer({ port: 0, dbPath, uiDir: false });
    onTestFinished(() => second.close());
    expect((await get(second.url, routes.call('keep', callIdOf(1)))).body).toMatchObject({
      status: 'success',
      inputs: { n: 1 },
    });
    expect((await get(second.url, routes.objectRead('keep', 'p', 'latest'))).body).toMatchObject({
      version: 1,
      value,
    });
    expect((await get(second.url, routes.tableRows('keep', table.body.digest))).body.rowCount).toBe(2);
    const bytes = await fetch(new URL(routes.fileRead('keep', file.body.digest), second.url));
    expect(await bytes.text()).toBe('bytes');
    // The next version continues the numbering rather than restarting it.
    const next = { prompt: 'next' };
    const created = await post(second.url, routes.objectCreate(), {
      project: 'keep',
      name: 'p',
      value: next,
      digest: digestValue(next),
    });
    expect(created.body.version).toBe(2);
  });
});

describe('shutdown', () => {
  it('finishes a request in flight before closing the database', async () => {
    const dbPath = await tempDb();
    const server = await startServer({ port: 0, dbPath, uiDir: false });
    const items = Array.from({ length: 2_000 }, (_, i) =>
      completeOf(i, { inputs: { text: 'x'.repeat(500) } }),
    );
    let closing: Promise<void> | undefined;
    const onRequestStart = () => {
      // A microtask later, so the server has begun handling the request.
      queueMicrotask(() => {
        closing ??= server.close();
      });
    };
    subscribe('http.server.request.start', onRequestStart);
    onTestFinished(() => {
      unsubscribe('http.server.request.start', onRequestStart);
    });

    const reply = await post(
      server.url,
      routes.callBatch(),
      { project: 'drain', items },
      { format: 'msgpack' },
    );
    expect(closing).toBeDefined();
    await closing;
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ accepted: 2_000 });
    await expect(fetch(new URL(routes.health(), server.url))).rejects.toThrow();

    const again = await startServer({ port: 0, dbPath, uiDir: false });
    onTestFinished(() => again.close());
    const page = await post(again.url, routes.callQuery(), { project: 'drain', limit: 1_000 });
    expect(page.body.calls).toHaveLength(1_000);
    expect(page.body.nextCursor).not.toBeNull();
  });

  it('is idempotent: every close call resolves, the first one does the work', async () => {
    const server = await startServer({ port: 0, dbPath: await tempDb(), uiDir: false });
    const a = server.close();
    const b = server.close();
    expect(b).toBe(a);
    await Promise.all([a, b]);
    await server.close();
  });

  it('reports a taken port as WEFT_LISTEN_FAILED', async () => {
    const taken = await startTestServer();
    const error = await startServer({ port: taken.port, dbPath: await tempDb(), uiDir: false }).catch(
      (e: unknown) => e,
    );
    expect(ListenError.isInstance(error)).toBe(true);
    expect((error as ListenError).code).toBe('WEFT_LISTEN_FAILED');
    expect((error as Error).message).toContain('EADDRINUSE');
  });

  it('refuses invalid options with WEFT_INVALID_OPTIONS naming the option', async () => {
    const error = await startServer({ port: -1, dbPath: ':memory:' }).catch((e: unknown) => e);
    expect((error as { code: string }).code).toBe('WEFT_INVALID_OPTIONS');
    expect((error as Error).message).toContain('port');
  });
});
