import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, expect, it, onTestFinished } from 'vitest';
import * as weft from '@weft/sdk';
import { Dataset, RemoteDataset } from '../src/datasets/index.js';
import { startRequestLogProxy } from './eval/fixtures/request-log-proxy.js';
import { startTestServer } from '@weft/test-server';
import { FaultProxy, listServerCalls, useFileServer } from './support/index.js';

const server = useFileServer();

function init(project: string, url: string, extra: Partial<weft.WeftOptions> = {}) {
  return weft.init({ project, url, outbox: false, handleExit: false, ...extra });
}

it('a Dataset in an op input is published once and recorded as its table ref; get pages it lazily', async () => {
  const proxy = await startRequestLogProxy(server.url);
  afterAll(() => proxy.close());
  const client = init('dsc', proxy.url);
  const rows = Array.from({ length: 2_500 }, (_, i) => ({ question: `q${i}`, answer: i }));
  const dataset = new Dataset({ name: 'qa-in-calls', rows });
  const scoreAllOp = weft.op(function scoreAll(data: Dataset, k: number) {
    return { k, rows: data.length, same: data };
  });
  scoreAllOp(dataset, 1);
  scoreAllOp(dataset, 2);
  expect((await client.flush()).failed).toBe(0);

  const table = `weft:///dsc/table/${await dataset.digest()}`;
  const calls = await client.getCalls({ opName: 'scoreAll' }).toArray();
  expect(calls).toHaveLength(2);
  for (const call of calls) {
    expect(call.inputs.data).toBe(table);
    expect(call.output).toMatchObject({ rows: 2_500, same: table });
  }
  // Four appearances, one publish: one "which rows do you have" and one upload of the rows.
  const posts = (path: string) => proxy.requests.filter((r) => r.method === 'POST' && r.path === path).length;
  expect(posts('/v1/tables/rows/known')).toBe(1);
  expect(posts('/v1/tables/rows')).toBe(1);

  const pageGets = () => proxy.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/rows')).length;
  const before = pageGets();
  const view = (await client.get(table)) as RemoteDataset;
  expect(view).toBeInstanceOf(RemoteDataset);
  afterAll(() => view.close());
  expect(view.length).toBe(2_500);
  expect(pageGets() - before).toBe(1); // the length, not the rows
  const iterator = view[Symbol.asyncIterator]();
  const first = await iterator.next();
  expect(first.value?.value).toEqual(rows[0]);
  expect(pageGets() - before).toBe(2);
  for (let i = 1; i < 1_000; i++) await iterator.next();
  expect(pageGets() - before).toBe(2); // the first page held 1,000 rows
  const next = await iterator.next();
  expect(next.value).toMatchObject({ index: 1_000, value: rows[1_000] });
  expect(pageGets() - before).toBe(3);
  await iterator.return?.(undefined);
  expect((await view.row(2_499)).value).toEqual(rows[2_499]);

  // Row refs resolve to the row, and a path goes into it.
  const rowRef = first.value?.ref as string;
  expect(rowRef).toBe(`${table}/row/${(await dataset.rowDigests())[0]}`);
  expect(await client.get(rowRef)).toEqual(rows[0]);
  expect(await client.get(`${rowRef}/question`)).toBe('q0');
  const last = (await view.row(2_499)).ref;
  expect(await client.get(last)).toEqual(rows[2_499]);
  await expect(client.get(`${table}/row/${'A'.repeat(43)}`)).rejects.toMatchObject({
    code: 'WEFT_INVALID_OPTIONS',
  });
  await expect(client.get(`${table}/nope`)).rejects.toMatchObject({ code: 'WEFT_INVALID_OPTIONS' });
});

it('one pool slot, 500 calls holding a dataset and blobs, server paused: the pool drains, and everything lands after resume', async () => {
  const proxy = await FaultProxy.start({ upstream: server.url });
  afterAll(() => proxy.close());
  const client = init('dsc-paused', proxy.url, { concurrency: 1 });
  const unique = `${process.pid}-${Date.now()}`;
  const dataset = new Dataset({
    name: 'paused',
    rows: Array.from({ length: 50 }, (_, i) => ({ id: `${unique}-${i}` })),
  });
  proxy.pause();
  const stepOp = weft.op(function step(data: Dataset, i: number) {
    return {
      i,
      rows: data.length,
      blob: Buffer.from(`blob ${i % 10} ${unique}`),
      floats: new Float32Array([i % 3]),
    };
  });
  for (let i = 0; i < 500; i++) stepOp(dataset, i);

  // The dataset's first request and the first file upload are held by the paused server.
  await proxy.waitFor((c) => c.held >= 2);
  // With those uploads unanswered, the one slot still finishes every walk: no slot waits on an upload.
  // (Counted in loop turns, not time; a slot stuck on an upload would never free.)
  for (let turn = 0; client.diagnostics().pool.running + client.diagnostics().pool.waiting > 0; turn++) {
    if (turn > 200_000)
      throw new Error(`the pool did not drain: ${JSON.stringify(client.diagnostics().pool)}`);
    await nextTurn();
  }
  expect(client.diagnostics().pool).toMatchObject({ running: 0, waiting: 0 });
  // No record went out while its refs were pending.
  expect(await listServerCalls(server.url, 'dsc-paused')).toHaveLength(0);

  proxy.resume();
  const result = await client.flush();
  expect(result).toMatchObject({ failed: 0, pending: 0 });
  const calls = await listServerCalls(server.url, 'dsc-paused');
  expect(calls).toHaveLength(500);
  const table = `weft:///dsc-paused/table/${await dataset.digest()}`;
  const blobs = new Set<string>();
  for (const call of calls) {
    expect(call.inputs.data).toBe(table);
    const output = call.output as { blob: string; floats: string };
    expect(output.blob).toMatch(/^weft:\/\/\/dsc-paused\/file\//);
    expect(output.floats).toMatch(/^weft:\/\/\/dsc-paused\/file\//);
    blobs.add(output.blob);
  }
  expect(blobs.size).toBe(10);
  const view = (await client.get(table)) as RemoteDataset;
  afterAll(() => view.close());
  expect(view.length).toBe(50);
});

it('a dataset whose upload meets 503s and 429s is retried; a file upload too; both refs land', async () => {
  const proxy = await FaultProxy.start({
    upstream: server.url,
    match: ({ path }) => path.startsWith('/v1/tables/') || path.startsWith('/v1/files/'),
  });
  afterAll(() => proxy.close());
  const client = init('dsc-retry', proxy.url);
  proxy.failNext(2, { status: 503 });
  proxy.failNext(1, { status: 429, headers: { 'retry-after': '0' } });
  const dataset = new Dataset({ name: 'retried', rows: [{ x: 1 }, { x: 2 }] });
  const useOp = weft.op(function use(data: Dataset) {
    return { rows: data.length, blob: Buffer.from(`retried ${process.pid}`) };
  });
  useOp(dataset);
  expect((await client.flush()).failed).toBe(0);
  expect(proxy.counters.injected).toBe(3);
  const calls = await listServerCalls(server.url, 'dsc-retry');
  expect(calls).toHaveLength(1);
  const call = calls[0] as (typeof calls)[number];
  expect(call.inputs.data).toBe(`weft:///dsc-retry/table/${await dataset.digest()}`);
  expect((call.output as { blob: string }).blob).toMatch(/^weft:\/\/\/dsc-retry\/file\//);
});

it('publish of a Dataset through the client gives its object ref; a different name is refused', async () => {
  const client = init('dsc-publish', server.url);
  const dataset = new Dataset({ name: 'published', rows: [{ a: 1 }] });
  const ref = await client.publish(dataset);
  expect(ref.name).toBe('published');
  expect(await client.get(ref)).toEqual({
    rows: `weft:///dsc-publish/table/${await dataset.digest()}`,
    rowCount: 1,
    columns: ['a'],
  });
  await expect(client.publish(dataset, { name: 'other' })).rejects.toMatchObject({
    code: 'WEFT_INVALID_OPTIONS',
  });
});

it('against a token-protected server, the apiKey given to init carries datasets and files (not only WEFT_API_KEY)', async () => {
  const saved = process.env.WEFT_API_KEY;
  delete process.env.WEFT_API_KEY;
  onTestFinished(() => {
    if (saved !== undefined) process.env.WEFT_API_KEY = saved;
  });
  const secured = await startTestServer({ token: 'tok-datasets-files' });
  const client = init('dsc-auth', secured.url, { apiKey: 'tok-datasets-files' });
  const dataset = new Dataset({ name: 'secured', rows: [{ q: 'a' }] });
  const securedOp = weft.op(function securedCall(data: Dataset) {
    return { rows: data.length, blob: Buffer.from('secured bytes') };
  });
  securedOp(dataset);
  expect((await client.flush()).failed).toBe(0);
  const calls = await client.getCalls({ opName: 'securedCall' }).toArray();
  expect(calls).toHaveLength(1);
  const call = calls[0] as (typeof calls)[number];
  const table = call.inputs.data as string;
  expect(table).toBe(`weft:///dsc-auth/table/${await dataset.digest()}`);
  const view = (await client.get(table)) as RemoteDataset;
  afterAll(() => view.close());
  expect((await view.row(0)).value).toEqual({ q: 'a' });
  const bytes = (await client.get((call.output as { blob: string }).blob)) as Uint8Array;
  expect(Buffer.from(bytes).toString()).toBe('secured bytes');
});
