import { type CallSummary, routes } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callIdOf, completeOf, endOf, startOf } from './support/calls.js';
import { type BodyFormat, get, post } from './support/http.js';
import { startTestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server.close());

const project = 'cost';
const ingest = (items: unknown[], format: BodyFormat) =>
  post(server.url, routes.callBatch(), { project, items }, { format });

// What the SDK sends: the child priced one model; the parent's usage is its
// own (unpriced) model plus the child's, and its costUsd the sum of the priced entries.
const childSummary: CallSummary = {
  latencyMs: 12.5,
  status: 'success',
  timeToFirstTokenMs: 3.25,
  usage: {
    'gpt-4o-mini': {
      requests: 1,
      inputTokens: 1_200,
      outputTokens: 80,
      totalTokens: 1_280,
      cachedInputTokens: 1_024,
      reasoningTokens: 16,
      costUsd: 0.0001074,
    },
  },
  costUsd: 0.0001074,
};
const parentSummary: CallSummary = {
  latencyMs: 30,
  status: 'success',
  usage: {
    ...(childSummary.usage as NonNullable<CallSummary['usage']>),
    'local-llama': { requests: 2, inputTokens: 50, outputTokens: 5, totalTokens: 55 },
  },
  costUsd: 0.0001074,
  childCounts: { success: 1 },
};

describe('cost through ingest and the read API', () => {
  it.each([
    ['json', 1],
    ['msgpack', 10],
  ] as const)('keeps usage, cost and their absence exactly as sent (%s)', async (format, n) => {
    const parent = callIdOf(n);
    const child = callIdOf(n + 1);
    // The child's end arrives before its start: the summary must survive the merge.
    const reply = await ingest(
      [
        endOf(n + 1, { summary: childSummary }),
        completeOf(n, { summary: parentSummary }),
        startOf(n + 1, { traceId: parent, parentId: parent }),
      ],
      format,
    );
    expect(reply).toMatchObject({ status: 200, body: { accepted: 3 } });

    const one = await get(server.url, routes.call(project, child));
    expect(one.body.summary).toEqual(childSummary);
    const listed = await post(server.url, routes.callQuery(), { project, traceId: parent });
    const byId = new Map(listed.body.calls.map((c: { id: string }) => [c.id, c]));
    expect((byId.get(parent) as { summary: unknown }).summary).toEqual(parentSummary);
    expect((byId.get(child) as { summary: unknown }).summary).toEqual(childSummary);
    // An unpriced model has no cost field at all: not 0, not null.
    const llama = (byId.get(parent) as { summary: CallSummary }).summary.usage?.['local-llama'] ?? {};
    expect(Object.hasOwn(llama, 'costUsd')).toBe(false);
  });

  it('a call with only unpriced usage comes back with no costUsd anywhere', async () => {
    const summary: CallSummary = {
      status: 'success',
      usage: { mystery: { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 } },
    };
    await ingest([completeOf(20, { summary })], 'json');
    const { body } = await get(server.url, routes.call(project, callIdOf(20)));
    // The server fills the latency a complete record leaves implied (endedAt − startedAt).
    expect(body.summary).toEqual({ ...summary, latencyMs: 10 });
    expect(JSON.stringify(body)).not.toContain('costUsd');
  });

  it.each([
    ['a negative summary.costUsd', { costUsd: -1 }, 'costUsd'],
    [
      'a cost that is not a number',
      { usage: { m: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: '0.1' } } },
      'costUsd',
    ],
  ])(
    'rejects %s with a 400 naming the field, and stores nothing of the batch',
    async (_case, summary, field) => {
      const reply = await ingest([completeOf(30, { summary: summary as never })], 'json');
      expect(reply.status).toBe(400);
      expect(JSON.stringify(reply.body)).toContain(field);
      expect((await get(server.url, routes.call(project, callIdOf(30)))).status).toBe(404);
    },
  );
});
