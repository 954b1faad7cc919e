import { rm } from 'node:fs/promises';
import { digestBytes, encodeMsgpack, routes } from '@weft/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/index.js';
import { openTestStorage } from './support/test-storage.js';
import {
  bodies,
  encodeBody,
  expectAlive,
  expectHandled,
  injectSender,
  postCase,
  type RawRequest,
  type Send,
  seedVictim,
  snapshotVictim,
  type VictimSeed,
} from './support/fuzz-harness.js';
import { callIdOf, completeOf } from './support/calls.js';
import { tempDir } from '@weft/test-server';

// Structured fuzzing: valid-looking bodies for every POST route with some
// fields replaced by hostile values, in JSON or msgpack, against the whole
// app in-process. Each case must be a correct 2xx or a clear 4xx, /health
// must answer after it, and the "victim" project must read the same after.

const RUNS = 250;
const DEEP_MARK = '__weft_deep_value__';

/**
 * A 2xx is only correct if what was stored reads back: the read API must
 * answer (never a 5xx) for every call and object just accepted.
 */
async function readBack(send: Send, url: string, body: unknown): Promise<void> {
  const { project, items, name } = body as { project: string; items?: { id?: unknown }[]; name?: string };
  const reads: string[] = [];
  if (url === routes.callBatch()) {
    for (const item of items ?? []) reads.push(routes.call(project, String(item.id)));
    const query = await send({
      method: 'POST',
      url: routes.callQuery(),
      ...encodeBody({ project, limit: 1000 }, 'json'),
    });
    expectHandled(query, `read back query of ${project}`);
    expect(query.status).toBe(200);
  }
  if (url === routes.objectCreate())
    reads.push(routes.objectRead(project, String(name), 'latest'), routes.objectList(project));
  for (const path of reads) {
    const reply = await send({ method: 'GET', url: path });
    expectHandled(reply, `read back ${path}`);
    expect([200, 404]).toContain(reply.status);
  }
}

describe('fuzz: every POST route, structured hostile bodies, in-process', () => {
  let send: Send;
  let seed: VictimSeed;
  let before: unknown;
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    const dir = await tempDir();
    const storage = await openTestStorage(dir);
    const app = createApp({ storage, uiDir: false });
    cleanup.push(async () => {
      await app.close();
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    });
    send = injectSender(app);
    seed = await seedVictim(send);
    before = await snapshotVictim(send, seed);
  });
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  it('answers a correct 2xx or a clear 4xx, keeps answering /health, and leaves the victim untouched', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(postCase, async ({ url, body, format }) => {
        const request: RawRequest = { method: 'POST', url, ...encodeBody(body, format) };
        const reply = await send(request);
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        expectHandled(reply, `POST ${url} (${format})`);
        if (reply.status === 200) await readBack(send, url, body);
        await expectAlive(send);
      }),
      {
        numRuns: RUNS * Object.keys(bodies).length,
        seed: Number(process.env.WEFT_FUZZ_SEED ?? Date.now() % 2 ** 31),
      },
    );
    // The fuzz reached the handlers: some cases were accepted, many refused.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
    expect(await snapshotVictim(send, seed)).toEqual(before);
  });

  it('regression: a msgpack uint64 in a call output was stored, then every read of the project answered 500', async () => {
    for (const [i, over] of [
      { output: 2n ** 64n - 1n },
      { inputs: { n: -(2n ** 63n) } },
      { summary: { big: 1n } },
    ].entries()) {
      const n = 500 + i;
      const batch = { project: 'bigint', items: [completeOf(n, over as object)] };
      const reply = await send({ method: 'POST', url: routes.callBatch(), ...encodeBody(batch, 'msgpack') });
      expectHandled(reply, 'bigint batch');
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.text).error.path).toMatch(/^items\.0\.(output|inputs\.n|summary\.big)$/);
    }
    const query = await send({
      method: 'POST',
      url: routes.callQuery(),
      ...encodeBody({ project: 'bigint' }, 'json'),
    });
    expect(query.status).toBe(200);
  });

  it('survives 10,000 levels of nesting in every value field, as JSON text and as msgpack', async () => {
    const deepJson = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
    const deepMsgpack = Buffer.concat([Buffer.alloc(10_000, 0x91), Buffer.from([0x01])]);
    const ids = { id: callIdOf(9), traceId: callIdOf(9) };
    const templates: [string, (deep: string) => string][] = [
      [
        routes.callBatch(),
        (d) =>
          `{"project":"fuzz","items":[{"type":"complete","id":"${ids.id}","traceId":"${ids.traceId}","parentId":null,"opName":"op","startedAt":1,"endedAt":2,"inputs":{"a":${d}},"output":${d}}]}`,
      ],
      [
        routes.callBatch(),
        (d) =>
          `{"project":"fuzz","items":[{"type":"end","id":"${ids.id}","endedAt":2,"exception":${'{"name":"E","message":"m","cause":'.repeat(1_200)}${d}${'}'.repeat(1_200)}}]}`,
      ],
      [routes.callQuery(), (d) => `{"project":"fuzz","opName":${d},"sort":${d}}`],
      [
        routes.objectCreate(),
        (d) => `{"project":"fuzz","name":"deep","value":${d},"digest":"${'A'.repeat(43)}"}`,
      ],
      [routes.tableCreate(), (d) => `{"project":"fuzz","rows":[${d}]}`],
    ];
    for (const [url, template] of templates) {
      const json = await send({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(template(deepJson)),
      });
      expectHandled(json, `${url} deep JSON`);
      expect(json.status).toBe(400);
      // The same body as msgpack: the envelope encoded with a marker string
      // whose bytes are then swapped for the 10,000-level array.
      const envelope = Buffer.from(encodeMsgpack(JSON.parse(template(JSON.stringify(DEEP_MARK)))));
      const marker = Buffer.from(encodeMsgpack(DEEP_MARK));
      const parts: Buffer[] = [];
      let from = 0;
      for (let at = envelope.indexOf(marker); at >= 0; at = envelope.indexOf(marker, from)) {
        parts.push(envelope.subarray(from, at), deepMsgpack);
        from = at + marker.length;
      }
      parts.push(envelope.subarray(from));
      expect(parts.length).toBeGreaterThan(1);
      const msgpack = await send({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/msgpack' },
        body: Buffer.concat(parts),
      });
      expectHandled(msgpack, `${url} deep msgpack`);
      expect(msgpack.status).toBe(400);
      await expectAlive(send);
    }
    expect(await snapshotVictim(send, seed)).toEqual(before);
  });
});

// Bodies whose decoded cost is not their byte size: more values than the
// server's limit in any shape (wide, deep and wide, many keys, inside a
// value item's bytes), and bytes (msgpack bin) where none belong, in every
// value field of every POST route. Each is refused with 413 or 400 before
// anything is stored.

const MAX_NODES = 5_000;

/** A value of more than MAX_NODES values, built without recursion, in one of several shapes. */
const bomb: fc.Arbitrary<unknown> = fc
  .tuple(
    fc.constantFrom('empty maps', 'empty arrays', 'keys', 'grid', 'numbers'),
    fc.integer({ min: MAX_NODES + 1, max: 4 * MAX_NODES }),
  )
  .map(([shape, count]) => {
    let value: unknown;
    if (shape === 'empty maps') value = Array.from({ length: count }, () => ({}));
    else if (shape === 'empty arrays') value = Array.from({ length: count }, () => []);
    else if (shape === 'keys')
      value = Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    else if (shape === 'numbers') value = Array.from({ length: count }, (_, i) => i);
    else {
      const side = Math.ceil(Math.sqrt(count));
      value = Array.from({ length: side }, () => Array.from({ length: side }, () => ({ a: 1 })));
    }
    return Object.assign(value as object, { [fc.toStringMethod]: () => `bomb(${shape}, ${count})` });
  });

/** Bytes where a body may not carry them. */
const bytes = fc
  .integer({ min: 0, max: 100_000 })
  .map((n) => Object.assign(new Uint8Array(n).fill(7), { [fc.toStringMethod]: () => `bytes(${n})` }));

/** Where in a body of each route the payload goes. */
const placements: [string, (payload: unknown) => unknown][] = [
  [routes.callBatch(), (p) => ({ project: 'fuzz', items: [completeOf(7, { inputs: { a: p } })] })],
  [routes.callBatch(), (p) => ({ project: 'fuzz', items: [completeOf(7, { output: [p] })] })],
  [routes.callBatch(), (p) => ({ project: 'fuzz', items: [completeOf(7, { attributes: { p } })] })],
  [routes.objectCreate(), (p) => ({ project: 'fuzz', name: 'bomb', value: { p }, digest: 'A'.repeat(43) })],
  [routes.tableCreate(), (p) => ({ project: 'fuzz', rows: [p] })],
  [routes.callQuery(), (p) => ({ project: 'fuzz', opName: p })],
];

describe('fuzz: bodies of too many values or misplaced bytes, every POST route, in-process', () => {
  let send: Send;
  let seed: VictimSeed;
  let before: unknown;
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    const dir = await tempDir();
    const storage = await openTestStorage(dir);
    const app = createApp({ storage, uiDir: false, maxBodyNodes: MAX_NODES });
    cleanup.push(async () => {
      await app.close();
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    });
    send = injectSender(app);
    seed = await seedVictim(send);
    before = await snapshotVictim(send, seed);
  });
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  it('refuses each with 413 WEFT_TOO_MANY_VALUES or 400 naming the bytes, and stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...placements),
        fc.oneof(bomb, bytes),
        fc.constantFrom('json', 'msgpack') as fc.Arbitrary<'json' | 'msgpack'>,
        async ([url, place], payload, format) => {
          // JSON has no bytes: a Uint8Array prints as an object of numbered keys, a value like any other.
          const isBytes = payload instanceof Uint8Array;
          if (isBytes && format === 'json') return;
          const reply = await send({ method: 'POST', url, ...encodeBody(place(payload), format) });
          expectHandled(reply, `${url} ${String(payload)} ${format}`);
          const error = JSON.parse(reply.text).error;
          if (isBytes)
            expect([reply.status, error.message]).toEqual([400, expect.stringContaining('msgpack bin')]);
          else expect([reply.status, error.code]).toEqual([413, 'WEFT_TOO_MANY_VALUES']);
          await expectAlive(send);
        },
      ),
      { numRuns: 60, seed: Number(process.env.WEFT_FUZZ_SEED ?? Date.now() % 2 ** 31) },
    );
    // A value item whose own bytes hold the values: the body sees one bin.
    const inner = Buffer.from(encodeMsgpack(Array.from({ length: MAX_NODES }, () => ({}))));
    const item = await send({
      method: 'POST',
      url: routes.callBatch(),
      ...encodeBody(
        { project: 'fuzz', items: [{ type: 'value', digest: digestBytes(inner), bytes: inner }] },
        'msgpack',
      ),
    });
    expect([item.status, JSON.parse(item.text).error.code]).toEqual([413, 'WEFT_TOO_MANY_VALUES']);
    const query = await send({
      method: 'POST',
      url: routes.callQuery(),
      ...encodeBody({ project: 'fuzz' }, 'json'),
    });
    expect(JSON.parse(query.text).calls).toEqual([]);
    expect(await snapshotVictim(send, seed)).toEqual(before);
  });
});
