import { type CallComplete, routes } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '@weft/test-server';
import { callIdOf } from './support/calls.js';
import { post } from './support/http.js';
import { freshTestStorageUrl } from './support/test-storage.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server.close());

const PROJECT = 'trace-diff';

/**
 * A trace of an agent: a root `agent`, `steps` children `step`, each with
 * an `llm` and a `search` child. `change(step)` may alter a step's llm
 * inputs and outputs (and so everything after it, as a real run would).
 */
function agentTrace(salt: number, steps: number, reply: (step: number) => string): CallComplete[] {
  let n = 0;
  const call = (parent: string | null, opName: string, inputs: Record<string, unknown>, output: unknown) => {
    const id = callIdOf(n, salt);
    const startedAt = 1_700_000_000_000 + n;
    n++;
    return {
      type: 'complete' as const,
      id,
      traceId: callIdOf(0, salt),
      parentId: parent,
      opName,
      startedAt,
      endedAt: startedAt + 1,
      inputs,
      output,
    };
  };
  const root = call(null, 'agent', { task: 'find it' }, null);
  const calls: CallComplete[] = [root];
  const history: string[] = [];
  for (let i = 0; i < steps; i++) {
    const step = call(root.id, 'step', { history: [...history] }, null);
    const text = reply(i);
    const llm = call(step.id, 'llm', { history: [...history] }, { text });
    const search = call(step.id, 'search', { query: text }, { hits: [`about ${text}`] });
    history.push(text);
    calls.push({ ...step, output: { text } }, llm, search);
  }
  calls[0] = { ...root, output: { answer: history.at(-1) } };
  return calls;
}

async function ingest(calls: CallComplete[]) {
  const reply = await post(server.url, routes.callBatch(), { project: PROJECT, items: calls });
  expect(reply.status).toBe(200);
}

describe('POST /v1/traces/diff', () => {
  it('aligns two traces by step path and marks the first divergence where it starts, with the value differences there and after', async () => {
    await ingest(agentTrace(1, 3, (i) => `reply ${i}`));
    await ingest(agentTrace(2, 3, (i) => (i === 0 ? 'reply 0' : `other ${i}`)));

    const reply = await post(server.url, routes.traceDiff(), {
      project: PROJECT,
      left: callIdOf(0, 1),
      right: callIdOf(0, 2),
    });

    expect(reply.status).toBe(200);
    const { steps, firstDivergence, left, right } = reply.body;
    expect(left).toMatchObject({ traceId: callIdOf(0, 1), opName: 'agent', calls: 10 });
    expect(right.calls).toBe(10);
    expect(steps.map((s: { path: string }) => s.path)).toEqual([
      'agent',
      'agent/step[0]',
      'agent/step[0]/llm[0]',
      'agent/step[0]/search[0]',
      'agent/step[1]',
      'agent/step[1]/llm[0]',
      'agent/step[1]/search[0]',
      'agent/step[2]',
      'agent/step[2]/llm[0]',
      'agent/step[2]/search[0]',
    ]);
    // The model answered differently at step 1: that is where it starts, not at the root or the step above it.
    expect(steps[firstDivergence].path).toBe('agent/step[1]/llm[0]');
    expect(steps[firstDivergence]).toMatchObject({
      status: 'changed',
      origin: true,
      inputs: [],
      output: [{ path: 'output.text', kind: 'changed', left: 'reply 1', right: 'other 1' }],
    });
    expect(steps.find((s: { path: string }) => s.path === 'agent/step[1]')).toMatchObject({
      status: 'changed',
      origin: false,
    });
    expect(steps.find((s: { path: string }) => s.path === 'agent/step[0]')).toMatchObject({ status: 'same' });
    // After it, the search of that step has other inputs.
    expect(steps.find((s: { path: string }) => s.path === 'agent/step[1]/search[0]')).toMatchObject({
      origin: true,
      inputs: [{ path: 'query', kind: 'changed', left: 'reply 1', right: 'other 1' }],
    });
  });

  it('a step only one trace has is a divergence; identical traces have none', async () => {
    await ingest(agentTrace(3, 2, (i) => `reply ${i}`));
    await ingest(agentTrace(4, 3, (i) => `reply ${i}`));
    await ingest(agentTrace(5, 2, (i) => `reply ${i}`));

    const longer = await post(server.url, routes.traceDiff(), {
      project: PROJECT,
      left: callIdOf(0, 3),
      right: callIdOf(0, 4),
    });
    const { steps, firstDivergence } = longer.body;
    expect(steps[firstDivergence]).toMatchObject({
      path: 'agent/step[2]',
      status: 'right-only',
      left: null,
      right: callIdOf(7, 4),
    });

    const same = await post(server.url, routes.traceDiff(), {
      project: PROJECT,
      left: callIdOf(0, 3),
      right: callIdOf(0, 5),
    });
    expect(same.body.firstDivergence).toBeNull();
    expect(same.body.steps.every((s: { status: string }) => s.status === 'same')).toBe(true);
  });

  it('answers 404 naming an unknown trace and 400 naming a bad field', async () => {
    await ingest(agentTrace(6, 1, (i) => `reply ${i}`));
    const missing = await post(server.url, routes.traceDiff(), {
      project: PROJECT,
      left: callIdOf(0, 6),
      right: callIdOf(0, 99),
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain(callIdOf(0, 99));
    const bad = await post(server.url, routes.traceDiff(), {
      project: PROJECT,
      left: 'nope',
      right: callIdOf(0, 6),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('left');
  });
});
