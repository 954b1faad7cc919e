import { arrayDigest, digestBytes, encodeMsgpack, routes, valueRef } from '@weft/protocol';
import { startTestServer } from '@weft/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callIdOf, completeOf, endOf, startOf } from './support/calls.js';
import { CompactArrayItem, CompactDigest, CompactRef, CompactValueItem } from './support/compact-ref.js';
import { get, post } from './support/http.js';
import { freshTestStorageUrl } from './support/test-storage.js';

// Protocol 3: the SDK leaves a complete record's `latencyMs` out where it is
// `endedAt − startedAt`, and writes value items' digests as ext 0x44. The
// server puts the latency back at ingest, so every read has it. Protocol 4:
// the SDK leaves `status` out where the record's exception implies it
// (`error` with one, `success` without); the server puts it back too.

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

describe('records without the status their exception implies (protocol 4)', () => {
  const statusProject = 'implied-status';
  const failure = { name: 'Error', message: 'the model refused' };

  it('read back with it, and filter, count and export by it', async () => {
    const response = await post(
      server.url,
      routes.callBatch(),
      {
        project: statusProject,
        items: [
          { ...completeOf(21), summary: {} },
          { ...completeOf(22), exception: failure, summary: {} },
          // A start, then an end that failed: the end's summary leaves the status out too.
          startOf(23),
          { ...endOf(23), output: undefined, exception: failure, summary: { latencyMs: 10 } },
          // An explicit status is kept as it is.
          { ...completeOf(24), summary: { status: 'error' } },
        ],
      },
      { format: 'msgpack' },
    );
    expect(response.body).toEqual({ accepted: 5 });

    const statusOf = async (n: number) =>
      (await get(server.url, routes.call(statusProject, callIdOf(n)))).body.summary.status;
    expect(await Promise.all([21, 22, 23, 24].map(statusOf))).toEqual(['success', 'error', 'error', 'error']);

    const errors = await post(server.url, routes.callQuery(), { project: statusProject, status: 'error' });
    expect(errors.body.calls.map((c: { id: string }) => c.id).sort()).toEqual(
      [22, 23, 24].map((n) => callIdOf(n)),
    );

    const metrics = await post(server.url, routes.metricsQuery(), {
      project: statusProject,
      from: 1_700_000_000_000 - 60_000,
      to: 1_700_000_000_000 + 3_600_000,
      bucket: 'total',
      measures: ['count', 'errors'],
    });
    expect(metrics.status, JSON.stringify(metrics.body)).toBe(200);
    expect(metrics.body.series.map((s: { values: number[] }) => s.values)).toEqual([[4], [3]]);

    const url = `${routes.callExport()}?${new URLSearchParams({ project: statusProject, format: 'jsonl' })}`;
    const lines = (await (await fetch(new URL(url, server.url))).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(Object.fromEntries(lines.map((line) => [line.id, line.summary.status]))).toEqual({
      [callIdOf(21)]: 'success',
      [callIdOf(22)]: 'error',
      [callIdOf(23)]: 'error',
      [callIdOf(24)]: 'error',
    });
  });
});

describe('value items in their compact form (protocol 4)', () => {
  const valuesProject = 'compact-value-items';

  it('store the values they carry: calls resolve on read and export, a chain with a prev included', async () => {
    const prompt = { role: 'system', content: 'Cite the corpus. '.repeat(90) };
    const bytes = encodeMsgpack(prompt);
    const digest = digestBytes(bytes);
    const first = [encodeMsgpack({ role: 'user', content: 'first question' })];
    const firstDigest = arrayDigest(undefined, first);
    const next = [
      encodeMsgpack({ role: 'assistant', content: 'an answer' }),
      encodeMsgpack({ role: 'user', content: 'and then?' }),
    ];
    const nextDigest = arrayDigest(firstDigest, next);
    const response = await post(
      server.url,
      routes.callBatch(),
      {
        project: valuesProject,
        items: [
          new CompactValueItem(digest, bytes),
          new CompactArrayItem(firstDigest, undefined, first),
          new CompactArrayItem(nextDigest, firstDigest, next),
          completeOf(31, { inputs: { prompt: new CompactRef(digest), history: new CompactRef(nextDigest) } }),
          completeOf(32, { inputs: { history: new CompactRef(firstDigest) } }),
        ],
      },
      { format: 'msgpack' },
    );
    expect(response.body).toEqual({ accepted: 5 });
    const read = (await get(server.url, routes.call(valuesProject, callIdOf(31)))).body;
    expect(read.inputs).toEqual({
      prompt,
      history: [
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'an answer' },
        { role: 'user', content: 'and then?' },
      ],
    });
    const url = `${routes.callExport()}?${new URLSearchParams({ project: valuesProject, format: 'jsonl', values: 'resolved' })}`;
    const lines = (await (await fetch(new URL(url, server.url))).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.find((line) => line.id === callIdOf(32))?.inputs).toEqual({
      history: [{ role: 'user', content: 'first question' }],
    });
  });

  it('reject one whose bytes do not match its digest, by its index, and store the rest', async () => {
    const bytes = encodeMsgpack({ text: 'tampered '.repeat(50) });
    const good = encodeMsgpack({ text: 'intact '.repeat(50) });
    const response = await post(
      server.url,
      routes.callBatch(),
      {
        project: valuesProject,
        items: [
          new CompactValueItem(digestBytes(good), good),
          new CompactValueItem(digestBytes(good), bytes),
          completeOf(33, { inputs: { text: new CompactRef(digestBytes(good)) } }),
        ],
      },
      { format: 'msgpack' },
    );
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toMatch(/items\.1/);
    const read = (await get(server.url, routes.call(valuesProject, callIdOf(33)))).body;
    expect(read.inputs).toEqual({ text: { text: 'intact '.repeat(50) } });
  });
});
