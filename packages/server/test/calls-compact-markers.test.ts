import { digestBytes, encodeMsgpack, routes, valueRef, valueRefBytes } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '@weft/test-server';
import { callIdOf, completeOf } from './support/calls.js';
import { CompactId, CompactRef } from './support/compact-ref.js';
import { get, post } from './support/http.js';
import { freshTestStorageUrl } from './support/test-storage.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server.close());

const project = 'compact-markers';
const ingest = (items: unknown[]) =>
  post(server.url, routes.callBatch(), { project, items }, { format: 'msgpack' });

/** A plain value item, its compact marker and its map-form marker. */
function plain(value: unknown) {
  const bytes = encodeMsgpack(value);
  const digest = digestBytes(bytes);
  return { item: { type: 'value', digest, bytes }, compact: new CompactRef(digest), digest };
}

describe('compact value markers', () => {
  it('are what the test writes: the SDK form, 35 bytes', () => {
    const digest = digestBytes('x');
    expect(Buffer.from(encodeMsgpack(new CompactRef(digest)))).toEqual(Buffer.from(valueRefBytes(digest)));
  });

  it('in records and inside values resolve on read, search and export, mixed with map-form markers', async () => {
    const prompt = plain({ role: 'system', content: 'You answer in haiku. '.repeat(80) });
    // A value whose own bytes hold a compact marker (a message whose text was replaced).
    const message = plain({ role: 'user', content: prompt.compact });
    const legacy = plain({ text: 'an older SDK wrote this marker '.repeat(60) });
    const first = await ingest([
      message.item,
      legacy.item,
      completeOf(1, {
        inputs: { message: message.compact, old: valueRef(legacy.digest), query: 'zephyrquill' },
        output: message.compact,
      }),
    ]);
    // The prompt is referred to only from inside the message's bytes, compactly: the server finds it missing.
    expect(first.body).toEqual({ accepted: 3, missingValues: [prompt.digest] });
    expect((await ingest([prompt.item])).body).toEqual({ accepted: 1 });

    const expected: { inputs: Record<string, unknown>; output?: unknown } = {
      inputs: {
        message: { role: 'user', content: { role: 'system', content: 'You answer in haiku. '.repeat(80) } },
        old: { text: 'an older SDK wrote this marker '.repeat(60) },
        query: 'zephyrquill',
      },
    };
    expected.output = expected.inputs.message;
    const read = (await get(server.url, routes.call(project, callIdOf(1)))).body;
    expect({ inputs: read.inputs, output: read.output }).toEqual(expected);

    // Search reads the record as stored (words only inside a deduplicated value are not indexed, as before).
    const found = await post(server.url, routes.callQuery(), { project, text: 'zephyrquill' });
    expect(found.body.calls.map((c: { id: string }) => c.id)).toEqual([callIdOf(1)]);

    const url = `${routes.callExport()}?${new URLSearchParams({ project, format: 'jsonl', values: 'resolved' })}`;
    const exported = JSON.parse((await (await fetch(new URL(url, server.url))).text()).trim());
    expect({ inputs: exported.inputs, output: exported.output }).toEqual(expected);
  });

  it('accepts call ids in their compact form (as the SDK writes them) and reads them back as strings', async () => {
    const root = completeOf(20, { inputs: { q: 'root' } });
    const child = completeOf(21, { inputs: { q: 'child' } });
    const compact = (call: Record<string, unknown>) => ({
      ...call,
      id: new CompactId(call.id as string),
      traceId: new CompactId(call.traceId as string),
      parentId: call.parentId === null ? null : new CompactId(call.parentId as string),
    });
    const response = await ingest([
      compact(root),
      compact({ ...child, traceId: root.id, parentId: root.id }),
    ]);
    expect(response.body).toEqual({ accepted: 2 });
    const read = (await get(server.url, routes.call(project, callIdOf(21)))).body;
    expect({ id: read.id, traceId: read.traceId, parentId: read.parentId }).toEqual({
      id: callIdOf(21),
      traceId: callIdOf(20),
      parentId: callIdOf(20),
    });
  });
});
