import { digestBytes, encodeMsgpack, routes } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeOf } from './support/calls.js';
import { type Reply, send } from './support/http.js';
import { emptyArrayAnyValueBytes, requestWithAttributeBytes } from './support/otlp-bodies.js';
import { probeHealth, type ServerChild, startServerChild } from './support/server-child.js';

// Bodies whose decoded cost is not their byte size, against a real server in
// a process of its own (its peak memory is read from /proc): each is refused
// with a 4xx, `/health` answers all along, and the server stays small.
// Before: 20,000,000 empty maps took tens of seconds and gigabytes; a 16 MiB
// msgpack `bin` took 11 s to ingest and 11 s for every read of its call.

/** Peak RSS allowed for the server: generous (an idle server is ~100 MiB), far below what one bomb cost before. */
const PEAK_RSS_MIB = 600;
/** Slowest `/health` answer allowed while a bomb is processed: generous, the bombs took 40 s or more before. */
const HEALTH_MS = 3_000;

const MARK = 'HOLE-7f3a9c';

/** A msgpack batch of one call whose `inputs.a` is `count` empty maps, assembled from bytes. */
function msgpackMaps(count: number): Buffer {
  const envelope = Buffer.from(
    encodeMsgpack({ project: 'p', items: [completeOf(1, { inputs: { a: MARK } })] }),
  );
  const mark = Buffer.from(encodeMsgpack(MARK));
  const at = envelope.indexOf(mark);
  const maps = Buffer.alloc(5 + count, 0x80);
  maps[0] = 0xdd;
  maps.writeUInt32BE(count, 1);
  return Buffer.concat([envelope.subarray(0, at), maps, envelope.subarray(at + mark.length)]);
}

/** The same as JSON: `count` times `{}`. */
function jsonObjects(count: number): Buffer {
  const [head, tail] = JSON.stringify({
    project: 'p',
    items: [completeOf(2, { inputs: { a: MARK } })],
  }).split(`"${MARK}"`);
  const objects = Buffer.alloc(3 * count + 1, '{},');
  objects[0] = 0x5b;
  objects[objects.length - 1] = 0x5d;
  return Buffer.concat([Buffer.from(head as string), objects, Buffer.from(tail as string)]);
}

/** Sends `body` while `/health` is probed from another process; the answer and the slowest probe. */
async function underProbe(
  server: ServerChild,
  path: string,
  init: RequestInit,
): Promise<{ reply: Reply; slowestHealthMs: number }> {
  const { result: reply, health } = await probeHealth(server, () => send(server.url, path, init));
  expect(health.failures).toBe(0);
  return { reply, slowestHealthMs: health.slowestMs };
}

const msgpack = { 'content-type': 'application/msgpack' };
const json = { 'content-type': 'application/json' };

describe('bodies of many tiny values and of bytes', () => {
  let server: ServerChild;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    server = await startServerChild({ register: (cleanup) => cleanups.push(cleanup) });
  });
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it.each([
    ['msgpack: 20,000,000 empty maps (20 MB)', () => msgpackMaps(20_000_000), msgpack],
    ['JSON: 20,000,000 {} (60 MB)', () => jsonObjects(20_000_000), json],
  ])(
    'regression: refuses %s with 413 WEFT_TOO_MANY_VALUES while /health answers',
    async (_name, body, headers) => {
      const { reply, slowestHealthMs } = await underProbe(server, routes.callBatch(), {
        method: 'POST',
        headers,
        body: body() as BodyInit,
      });
      expect(reply.status).toBe(413);
      expect(reply.body.error.code).toBe('WEFT_TOO_MANY_VALUES');
      expect(reply.body.error.message).toContain('1000000 values');
      expect(slowestHealthMs).toBeLessThan(HEALTH_MS);
      expect(await server.peakRssMib()).toBeLessThan(PEAK_RSS_MIB);
    },
  );

  it('regression: refuses a value item whose bytes hold 5,000,000 empty maps (they decoded on every read)', async () => {
    const bytes = Buffer.alloc(5 + 5_000_000, 0x80);
    bytes[0] = 0xdd;
    bytes.writeUInt32BE(5_000_000, 1);
    const body = encodeMsgpack({
      project: 'p',
      items: [{ type: 'value', digest: digestBytes(bytes), bytes }],
    });
    const { reply, slowestHealthMs } = await underProbe(server, routes.callBatch(), {
      method: 'POST',
      headers: msgpack,
      body: body as BodyInit,
    });
    expect([reply.status, reply.body.error.code]).toEqual([413, 'WEFT_TOO_MANY_VALUES']);
    expect(slowestHealthMs).toBeLessThan(HEALTH_MS);
  });

  it('regression: refuses an OTLP protobuf span with 10,000,000 empty attribute values (20 MB) with 413', async () => {
    const { reply, slowestHealthMs } = await underProbe(server, routes.otlpTraces(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: requestWithAttributeBytes(
        'aa'.repeat(16),
        'bb'.repeat(8),
        emptyArrayAnyValueBytes(10_000_000),
      ) as BodyInit,
    });
    expect(reply.status).toBe(413);
    expect(slowestHealthMs).toBeLessThan(HEALTH_MS);
    expect(await server.peakRssMib()).toBeLessThan(PEAK_RSS_MIB);
  });

  it('regression: refuses a 16 MiB msgpack bin in call inputs with 400 naming the field, within the memory bound', async () => {
    const body = encodeMsgpack({
      project: 'p',
      items: [completeOf(3, { inputs: { blob: new Uint8Array(16 * 1024 * 1024).fill(7) } })],
    });
    const { reply, slowestHealthMs } = await underProbe(server, routes.callBatch(), {
      method: 'POST',
      headers: msgpack,
      body: body as BodyInit,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      code: 'WEFT_INVALID_REQUEST',
      path: 'items.0.inputs.blob',
      index: 0,
    });
    expect(reply.body.error.message).toContain('msgpack bin');
    expect(slowestHealthMs).toBeLessThan(HEALTH_MS);
    expect(await server.peakRssMib()).toBeLessThan(PEAK_RSS_MIB);
  });

  it('refuses bin inside a value item and in an object value, and keeps value items’ own bytes', async () => {
    const inner = Buffer.from(encodeMsgpack({ blob: new Uint8Array([7, 7, 7]) }));
    const plain = Buffer.from(encodeMsgpack({ text: 'fine' }));
    const batch = await send(server.url, routes.callBatch(), {
      method: 'POST',
      headers: msgpack,
      body: encodeMsgpack({
        project: 'p',
        items: [
          { type: 'value', digest: digestBytes(plain), bytes: plain },
          { type: 'value', digest: digestBytes(inner), bytes: inner },
        ],
      }) as BodyInit,
    });
    expect(batch.status).toBe(400);
    expect(batch.body.error).toMatchObject({ path: 'items.1.bytes', index: 1 });
    expect(batch.body.error.message).toContain('msgpack bin');
    const object = await send(server.url, routes.objectCreate(), {
      method: 'POST',
      headers: msgpack,
      body: encodeMsgpack({
        project: 'p',
        name: 'O',
        digest: 'x',
        value: { b: new Uint8Array(4) },
      }) as BodyInit,
    });
    expect([object.status, object.body.error.path]).toEqual([400, 'value.b']);
  });
});

describe('a large body of few values', () => {
  it('is stored while /health keeps answering', async () => {
    const server = await startServerChild();
    const body = JSON.stringify({
      project: 'p',
      items: [completeOf(4, { inputs: { text: 'x'.repeat(20_000_000) } })],
    });
    const { reply, slowestHealthMs } = await underProbe(server, routes.callBatch(), {
      method: 'POST',
      headers: json,
      body,
    });
    expect(reply.status).toBe(200);
    expect(slowestHealthMs).toBeLessThan(HEALTH_MS);
  });
});
