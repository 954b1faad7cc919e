import { encodeMsgpack, routes } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callIdOf, completeOf, endOf, startOf } from './support/calls.js';
import { post, send } from './support/http.js';
import { startTestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({
    maxBodyBytes: 64 * 1024,
    storage: freshTestStorageUrl(),
    register: false,
  });
});
afterAll(() => server.close());

const batch = (items: unknown[]) => ({ project: 'valid', items });
const digest = 'B'.repeat(43);

const invalid: { name: string; route: string; body: unknown; path: string; index?: number }[] = [
  { name: 'missing project', route: routes.callBatch(), body: { items: [startOf(1)] }, path: 'project' },
  {
    name: 'bad project name',
    route: routes.callBatch(),
    body: { project: '../x', items: [startOf(1)] },
    path: 'project',
  },
  { name: 'empty batch', route: routes.callBatch(), body: batch([]), path: 'items' },
  {
    name: 'startedAt as a string in item 3',
    route: routes.callBatch(),
    body: batch([
      startOf(1),
      startOf(2),
      endOf(2),
      startOf(3, { startedAt: 'yesterday' as unknown as number }),
    ]),
    path: 'items.3.startedAt',
    index: 3,
  },
  {
    name: 'unknown item type',
    route: routes.callBatch(),
    body: batch([startOf(1), { ...startOf(2), type: 'begin' }]),
    path: 'items.1.type',
    index: 1,
  },
  {
    name: 'call id not a UUID',
    route: routes.callBatch(),
    body: batch([startOf(1, { id: 'abc' })]),
    path: 'items.0.id',
    index: 0,
  },
  {
    name: 'negative endedAt',
    route: routes.callBatch(),
    body: batch([endOf(1, { endedAt: -5 })]),
    path: 'items.0.endedAt',
    index: 0,
  },
  {
    name: 'inputs not a record',
    route: routes.callBatch(),
    body: batch([startOf(1, { inputs: [1, 2] as unknown as Record<string, unknown> })]),
    path: 'items.0.inputs',
    index: 0,
  },
  {
    name: 'exception without message',
    route: routes.callBatch(),
    body: batch([completeOf(1, { exception: { name: 'E' } as never })]),
    path: 'items.0.exception.message',
    index: 0,
  },
  { name: 'body is not an object', route: routes.callBatch(), body: [1, 2, 3], path: '' },
  { name: 'query limit 0', route: routes.callQuery(), body: { project: 'valid', limit: 0 }, path: 'limit' },
  {
    name: 'query unknown sort field',
    route: routes.callQuery(),
    body: { project: 'valid', sort: { field: 'cost' } },
    path: 'sort.field',
  },
  {
    name: 'query bad status',
    route: routes.callQuery(),
    body: { project: 'valid', status: 'done' },
    path: 'status',
  },
  {
    name: 'query bad traceId',
    route: routes.callQuery(),
    body: { project: 'valid', traceId: 7 },
    path: 'traceId',
  },
  {
    name: 'object without digest',
    route: routes.objectCreate(),
    body: { project: 'valid', name: 'o', value: 1 },
    path: 'digest',
  },
  {
    name: 'object bad name',
    route: routes.objectCreate(),
    body: { project: 'valid', name: '-o', digest, value: 1 },
    path: 'name',
  },
  {
    name: 'object bad kind',
    route: routes.objectCreate(),
    body: { project: 'valid', name: 'o', kind: 'blob', digest, value: 1 },
    path: 'kind',
  },
  {
    name: 'table rows not a list',
    route: routes.tableCreate(),
    body: { project: 'valid', rows: {} },
    path: 'rows',
  },
  {
    name: 'append without base',
    route: routes.tableAppend(),
    body: { project: 'valid', rows: [1] },
    path: 'base',
  },
  {
    name: 'append with no rows',
    route: routes.tableAppend(),
    body: { project: 'valid', base: digest, rows: [] },
    path: 'rows',
  },
];

describe('invalid requests', () => {
  it.each(invalid)('rejects $name with 400 naming $path', async ({ route, body, path, index }) => {
    for (const format of ['json', 'msgpack'] as const) {
      const reply = await post(server.url, route, body, { format });
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('WEFT_INVALID_REQUEST');
      expect(reply.body.error.path).toBe(path);
      expect(reply.body.error.index).toBe(index);
      expect(reply.body.error.message).toContain(path || 'body');
    }
  });

  it('lists every bad item of a batch, so a client can drop them all at once', async () => {
    const items = [
      startOf(1),
      startOf(2, { id: 'x' }),
      startOf(3),
      endOf(4, { endedAt: Number.NaN as number }),
    ];
    const reply = await post(server.url, routes.callBatch(), batch(items), { format: 'msgpack' });
    expect(reply.body.error.index).toBe(1);
    expect(reply.body.error.issues.map((i: { index: number }) => i.index)).toEqual([1, 3]);
  });

  it('stores nothing from a rejected batch', async () => {
    await post(server.url, routes.callBatch(), batch([completeOf(50), startOf(51, { id: 'nope' })]));
    const reply = await post(server.url, routes.callQuery(), { project: 'valid', traceId: callIdOf(50) });
    expect(reply.body.calls).toEqual([]);
  });

  it('rejects a call value nested too deep to store with 400 naming the item, not a 5xx', async () => {
    const depth = 30_000;
    const item = JSON.stringify({ ...startOf(1), inputs: { deep: '__DEEP__' } }).replace(
      '"__DEEP__"',
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
    );
    const reply = await send(server.url, routes.callBatch(), {
      method: 'POST',
      body: `{"project":"valid","items":[${JSON.stringify(startOf(2))},${item}]}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'items.1', index: 1 });
  });

  it('rejects a value with no canonical form at its path', async () => {
    const reply = await post(
      server.url,
      routes.objectCreate(),
      { project: 'valid', name: 'o', digest, value: { when: new Date(0) } },
      { format: 'msgpack' },
    );
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'value.when' });
  });

  it.each([
    ['truncated msgpack', Buffer.from(encodeMsgpack(batch([startOf(1)]))).subarray(0, 20)],
    ['a reserved msgpack byte', Buffer.from([0xc1])],
    ['an empty msgpack body', Buffer.alloc(0)],
  ])('answers %s with 400', async (_name, bytes) => {
    const reply = await send(server.url, routes.callBatch(), {
      method: 'POST',
      body: bytes,
      headers: { 'content-type': 'application/msgpack' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('WEFT_INVALID_REQUEST');
  });

  it.each([
    ['malformed JSON', '{"project": "valid", "items": ['],
    ['an empty JSON body', ''],
    ['a prototype-polluting JSON body', '{"project":"valid","items":[],"__proto__":{"x":1}}'],
  ])('answers %s with 400', async (_name, text) => {
    const reply = await send(server.url, routes.callBatch(), {
      method: 'POST',
      body: text,
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('WEFT_INVALID_REQUEST');
  });

  it('answers an unsupported media type with 415 JSON', async () => {
    const reply = await send(server.url, routes.callBatch(), {
      method: 'POST',
      body: '<xml/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(reply.status).toBe(415);
    expect(reply.body.error.code).toBe('WEFT_UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('limits and unknown routes', () => {
  it('answers a body over maxBodyBytes with 413 JSON (declared length)', async () => {
    const big = batch([completeOf(1, { inputs: { text: 'x'.repeat(100 * 1024) } })]);
    const reply = await post(server.url, routes.callBatch(), big, { format: 'msgpack' });
    expect(reply.status).toBe(413);
    expect(reply.body.error.code).toBe('WEFT_PAYLOAD_TOO_LARGE');
  });

  it('answers a chunked body over maxBodyBytes with 413 JSON', async () => {
    const chunk = Buffer.from('x'.repeat(16 * 1024));
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const reply = await send(server.url, routes.fileCreate('valid'), {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/octet-stream' },
      duplex: 'half',
    } as RequestInit);
    expect(reply.status).toBe(413);
    expect(reply.body.error.code).toBe('WEFT_PAYLOAD_TOO_LARGE');
  });

  it.each([
    ['GET', '/v1/nothing'],
    ['POST', '/v1/calls/everything'],
    ['GET', '/nope'],
    ['DELETE', routes.callBatch()],
  ])('answers %s %s with 404 JSON', async (method, path) => {
    const reply = await send(server.url, path, { method });
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe('WEFT_NOT_FOUND');
  });
});
