import { arrayDigest, digestBytes, encodeMsgpack, routes, valueRef } from '@weft/protocol';
import { startTestServer } from '@weft/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callIdOf, completeOf } from './support/calls.js';
import { CompactDigest, CompactRef } from './support/compact-ref.js';
import { get, post } from './support/http.js';
import { freshTestStorageUrl } from './support/test-storage.js';

// Protocol 3: the SDK leaves a complete record's `latencyMs` out where it is
// `endedAt − startedAt`, and writes value items' digests as ext 0x44. The
// server puts the latency back at ingest, so every read has it.

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server.close());

const project = 'implied-latency';
const ingest = (items: unknown[]) =>
  post(server.url, routes.callBatch(), { project, items }, { format: 'msgpack' });

/** A complete record of `latencyMs` whose summary leaves the latency out, as the SDK sends it. */
function withoutLatency(n: number, latencyMs: number, inputs: Record<string, unknown>) {
  const call = completeOf(n, { inputs, summary: { status: 'success' } });
  return { ...call, endedAt: call.startedAt + latencyMs };
}

describe('complete records without their implied latency, value items with compact digests', () => {
  it('read back with latencyMs, sort by it, and resolve on read, search and export', async () => {
    const prompt = { role: 'system', content: 'Answer from the documents only. '.repeat(70) };
    const bytes = encodeMsgpack(prompt);
    const digest = digestBytes(bytes);
    const value = { type: 'value', digest: new CompactDigest(digest), bytes };
    const history = [encodeMsgpack({ role: 'user', content: 'quorvex' })];
    const chain = {
      type: 'value',
      digest: new CompactDigest(arrayDigest(undefined, history)),
      items: history,
    };
    const response = await ingest([
      value,
      chain,
      withoutLatency(1, 40, { prompt: new CompactRef(digest), query: 'quorvex' }),
      withoutLatency(2, 5.5, { prompt: new CompactRef(digest) }),
      { ...completeOf(3), summary: { latencyMs: 12, status: 'success' } },
      withoutLatency(4, 25, { history: new CompactRef(chain.digest.digest) }),
    ]);
    expect(response.body).toEqual({ accepted: 6 });

    const read = (await get(server.url, routes.call(project, callIdOf(1)))).body;
    expect(read.summary).toEqual({ latencyMs: 40, status: 'success' });
    expect(read.inputs).toEqual({ prompt, query: 'quorvex' });
    const fourth = (await get(server.url, routes.call(project, callIdOf(4)))).body;
    expect(fourth.inputs).toEqual({ history: [{ role: 'user', content: 'quorvex' }] });

    const sorted = await post(server.url, routes.callQuery(), {
      project,
      sort: { field: 'latencyMs', direction: 'desc' },
    });
    expect(sorted.body.calls.map((c: { summary: { latencyMs: number } }) => c.summary.latencyMs)).toEqual([
      40, 25, 12, 5.5,
    ]);

    const found = await post(server.url, routes.callQuery(), { project, text: 'quorvex' });
    expect(found.body.calls.map((c: { id: string }) => c.id)).toEqual([callIdOf(1)]);

    const url = `${routes.callExport()}?${new URLSearchParams({ project, format: 'jsonl', values: 'resolved' })}`;
    const lines = (await (await fetch(new URL(url, server.url))).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const exported = lines.find((line) => line.id === callIdOf(2));
    expect(exported).toMatchObject({ inputs: { prompt }, summary: { latencyMs: 5.5 } });
  });

  it('still takes records that carry latencyMs and digests as strings (older SDKs)', async () => {
    const bytes = encodeMsgpack({ text: 'an older SDK '.repeat(80) });
    const digest = digestBytes(bytes);
    const response = await ingest([
      { type: 'value', digest, bytes },
      {
        ...completeOf(10, { inputs: { old: valueRef(digest) } }),
        summary: { latencyMs: 7, status: 'success' },
      },
    ]);
    expect(response.body).toEqual({ accepted: 2 });
    const read = (await get(server.url, routes.call(project, callIdOf(10)))).body;
    expect(read.summary).toEqual({ latencyMs: 7, status: 'success' });
    expect(read.inputs.old).toEqual({ text: 'an older SDK '.repeat(80) });
  });
});
