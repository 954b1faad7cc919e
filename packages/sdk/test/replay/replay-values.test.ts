import OpenAI from 'openai';
import { collectValueRefs, routes, valueReadResponse } from '@weft/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import * as weft from '@weft/sdk';
import { wrapOpenAI } from '@weft/sdk/openai';
import { fork, replay } from '@weft/sdk/replay';
import { startTestServer } from '@weft/test-server';
import { resetWeft } from '../../src/testing/index.js';
import { startFakeProvider } from '../fixtures/fake-provider/index.js';
import { makeAgent } from '../fixtures/replay-agent.js';
import { FaultProxy } from '../support/index.js';

const STEPS = 5;

/**
 * Records a 5-step agent whose context grows by ~2 KB a step and whose tool
 * results are ~2 KB (so both are stored once by digest), through a proxy
 * that keeps every request; returns what the tests need.
 */
async function recordThroughProxy(project: string) {
  const server = await startTestServer();
  const provider = await startFakeProvider();
  const proxy = await FaultProxy.start({ upstream: server.url, record: true });
  onTestFinished(async () => {
    await resetWeft();
    await provider.close();
    await proxy.close();
  });
  const client = weft.init({ project, url: proxy.url, outbox: false });
  const openai = wrapOpenAI(new OpenAI({ apiKey: 'test', baseURL: `${provider.url}/v1`, maxRetries: 0 }));
  const app = makeAgent(openai, { growth: 2_000, hitBytes: 2_000 });
  for (let i = 0; i < STEPS; i++) {
    provider.enqueue({
      kind: 'completion',
      completion: { text: `reply ${i}`, usage: { inputTokens: 1, outputTokens: 1 } },
    });
  }
  const output = await app.agent('find the answer', STEPS);
  await client.flush();
  const calls = await client.getCalls({ values: 'digests' }).toArray();
  const traceId = calls.find((call) => call.parentId === null)?.id as string;

  /** The digests the value reads asked for since `from` (one entry per digest asked, repeats kept). */
  const asked = (from: number) =>
    proxy.received
      .slice(from)
      .filter((request) => request.path === routes.valueRead())
      .flatMap((request) => (JSON.parse(request.body.toString('utf8')) as { digests: string[] }).digests);

  /** Every digest `digests` need, read straight from the server (not through the proxy): nested markers and `prev` chains. */
  async function closure(digests: Set<string>): Promise<Set<string>> {
    const all = new Set<string>();
    let frontier = [...digests];
    while (frontier.length > 0) {
      for (const digest of frontier) all.add(digest);
      const response = await fetch(`${server.url}${routes.valueRead()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ project, digests: frontier }),
      });
      const { values, missing } = valueReadResponse.parse(await response.json());
      expect(missing).toEqual([]);
      const next = new Set<string>();
      for (const value of values) {
        if (value.kind === 'items') {
          if (value.prev !== undefined) next.add(value.prev);
          collectValueRefs(value.items, next);
        } else collectValueRefs(value.value, next);
      }
      frontier = [...next].filter((digest) => !all.has(digest));
    }
    return all;
  }

  return { client, provider, proxy, app, output, calls, traceId, asked, closure };
}

describe('replay reads recorded values by digest', () => {
  it('fetches each digest the replay needs exactly once (inputs of every call, outputs of served calls), batched, and a second replay or fork on the same client fetches none', async () => {
    const { provider, proxy, app, output, calls, traceId, asked, closure } =
      await recordThroughProxy('replay-values-once');
    const requestsBefore = provider.requests.length;
    const traceCalls = calls.filter((call) => call.traceId === traceId);
    const needed = new Set<string>();
    for (const call of traceCalls) {
      collectValueRefs(call.inputs, needed);
      if (!calls.some((child) => child.parentId === call.id)) collectValueRefs(call.output, needed);
    }
    expect(needed.size).toBeGreaterThan(STEPS); // the recording did store values by digest
    const expected = await closure(needed);
    const from = proxy.received.length;

    const result = await replay(traceId, app.agent);

    expect(result.failed).toBe(false);
    expect(result.output).toBe(output);
    expect(provider.requests.length).toBe(requestsBefore);
    const fetched = asked(from);
    expect(new Set(fetched).size).toBe(fetched.length); // no digest asked twice
    expect(new Set(fetched)).toEqual(expected);
    const reads = proxy.received.slice(from).filter((request) => request.path === routes.valueRead());
    expect(reads.length).toBeLessThan(fetched.length); // batched: one request per level, not per digest

    const again = proxy.received.length;
    const second = await replay(traceId, app.agent);
    const forked = await fork(traceId, app.agent, {
      at: 'agent/step[4]/search',
      output: { hits: ['edited'] },
    });
    expect(second.output).toBe(output);
    expect(forked.failed).toBe(false);
    expect(asked(again)).toEqual([]);
  });

  it('reads no output of a call that runs live: with the tools live, the tool results are never fetched', async () => {
    const { app, calls, traceId, asked, proxy } = await recordThroughProxy('replay-values-live');
    const toolOutputs = new Set<string>();
    for (const call of calls) if (call.opName === 'search') collectValueRefs(call.output, toolOutputs);
    expect(toolOutputs.size).toBe(STEPS);
    const from = proxy.received.length;
    const toolRunsBefore = app.counts.search;

    const result = await replay(traceId, app.agent, { live: ['search'] });

    expect(result.failed).toBe(false);
    expect(app.counts.search - toolRunsBefore).toBe(STEPS);
    const fetched = new Set(asked(from));
    expect(fetched.size).toBeGreaterThan(0);
    for (const digest of toolOutputs) expect(fetched.has(digest)).toBe(false);
  });

  it('the value read names a malformed digest and lists the digests the project does not store', async () => {
    const server = await startTestServer();
    const read = (body: unknown) =>
      fetch(`${server.url}${routes.valueRead()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const bad = await read({ project: 'p', digests: ['not-a-digest'] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('digests.0');
    const unknown = 'A'.repeat(43);
    const answer = await read({ project: 'p', digests: [unknown, unknown] });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ values: [], missing: [unknown] });
  });
});
