import {
  arrayDigest,
  callsOfTraceColumns,
  digestBytes,
  encodeMsgpack,
  routes,
  valueRef,
} from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callIdOf, completeOf } from './support/calls.js';
import { get, post } from './support/http.js';
import { startTestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server.close());

const project = 'values';
const ingest = (items: unknown[]) =>
  post(server.url, routes.callBatch(), { project, items }, { format: 'msgpack' });
const readCall = (n: number) => get(server.url, routes.call(project, callIdOf(n)));

/** A plain value item and its marker. */
function plain(value: unknown) {
  const bytes = encodeMsgpack(value);
  const digest = digestBytes(bytes);
  return { item: { type: 'value', digest, bytes }, ref: valueRef(digest) };
}

/** An array value item: `items` after the array `prev`. */
function array(items: unknown[], prev?: string) {
  const encoded = items.map((item) => encodeMsgpack(item));
  const digest = arrayDigest(prev, encoded);
  return { item: { type: 'value', digest, prev, items: encoded }, ref: valueRef(digest), digest };
}

const system = { role: 'system', content: 'You are terse. '.repeat(100) };

describe('deduplicated values', () => {
  it('expands plain values, nested markers and chained arrays on every read path', async () => {
    const prompt = plain(system);
    const first = array([prompt.ref, { role: 'user', content: 'hi' }]);
    const second = array(
      [
        { role: 'assistant', content: 'hello' },
        { role: 'user', content: 'bye' },
      ],
      first.digest,
    );
    const response = await ingest([
      prompt.item,
      first.item,
      completeOf(1, { inputs: { messages: first.ref } }),
      second.item,
      completeOf(2, { inputs: { messages: second.ref }, output: prompt.ref }),
    ]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ accepted: 5 });

    const history = [
      system,
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'bye' },
    ];
    expect((await readCall(1)).body.inputs).toEqual({ messages: history.slice(0, 2) });
    const two = (await readCall(2)).body;
    expect(two.inputs).toEqual({ messages: history });
    expect(two.output).toEqual(system);
    const page = await post(server.url, routes.callQuery(), { project, traceId: callIdOf(2) });
    expect(page.body.calls[0].inputs).toEqual({ messages: history });
  });

  it("expands markers in a trace's attributes, as calls and as columns", async () => {
    const prompt = plain({ ...system, content: 'attribute '.repeat(60) });
    const attributes = { system: prompt.ref, tier: 1 };
    const trace = callIdOf(40);
    const child = { traceId: trace, parentId: trace, attributes };
    const response = await ingest([
      prompt.item,
      completeOf(40, { attributes }),
      completeOf(41, child),
      completeOf(42, child),
    ]);
    expect(response.status).toBe(200);
    const expanded = { system: { ...system, content: 'attribute '.repeat(60) }, tier: 1 };
    const light = (await get(server.url, routes.traceCalls(project, trace))).body.calls;
    expect(light.map((c: { attributes: unknown }) => c.attributes)).toEqual([expanded, expanded, expanded]);
    const columns = (await get(server.url, routes.traceColumns(project, trace))).body;
    expect(columns.values[columns.attributes[0]]).toEqual(expanded);
    expect(callsOfTraceColumns(columns)).toEqual(light);
  });

  it('stores a call before its values, names the missing ones, and expands once they arrive', async () => {
    const big = plain({ document: 'x'.repeat(5_000) });
    const first = await ingest([completeOf(3, { inputs: { doc: big.ref } })]);
    expect(first.body).toEqual({ accepted: 1, missingValues: [big.ref.digest] });
    expect((await readCall(3)).body.inputs).toEqual({ doc: big.ref });
    const second = await ingest([big.item]);
    expect(second.body).toEqual({ accepted: 1 });
    expect((await readCall(3)).body.inputs).toEqual({ doc: { document: 'x'.repeat(5_000) } });
  });

  it("names an array's missing prev as missing", async () => {
    const base = array([{ a: 1 }]);
    const next = array([{ b: 2 }], base.digest);
    const response = await ingest([next.item, completeOf(4, { inputs: { list: next.ref } })]);
    expect(response.body).toEqual({ accepted: 2, missingValues: [base.digest] });
    await ingest([base.item]);
    expect((await readCall(4)).body.inputs).toEqual({ list: [{ a: 1 }, { b: 2 }] });
  });

  it('rejects a value whose bytes do not match its digest, naming it, and stores the rest of the batch', async () => {
    const good = plain({ text: 'good '.repeat(300) });
    const bad = {
      ...plain({ text: 'bad' }).item,
      digest: good.ref.digest.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
    };
    const response = await ingest([good.item, bad, completeOf(5, { inputs: { v: good.ref } })]);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'WEFT_DIGEST_MISMATCH',
      index: 1,
      path: 'items.1.digest',
      actual: bad.digest,
    });
    expect((await readCall(5)).body.inputs).toEqual({ v: { text: 'good '.repeat(300) } });
    const chain = array([{ a: 1 }]);
    const forged = await ingest([{ ...chain.item, items: [encodeMsgpack({ a: 2 })] }]);
    expect(forged.body.error).toMatchObject({ code: 'WEFT_DIGEST_MISMATCH', index: 0 });
  });

  it('rejects a value item with neither bytes nor items', async () => {
    const response = await ingest([{ type: 'value', digest: plain(1).ref.digest }]);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', index: 0 });
  });
});
