import type { Call } from '@weft/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { resetWeft } from '../src/testing/index.js';
import { startTestServer } from '@weft/test-server';
import { listServerCalls } from './support/index.js';

afterEach(async () => {
  await resetWeft();
});

/** An LLM-style op: returns an OpenAI-shaped response with the given usage. */
const llm = weft.op(
  async function llm(model: string, input: number, output: number) {
    await null;
    return {
      model,
      text: 'ok',
      usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
    };
  },
  { name: 'llm' },
);
const plan = weft.op(
  async function plan() {
    await llm('gpt-4o', 2_000, 400);
    return llm('gpt-4o-mini', 1_000, 100);
  },
  { name: 'plan' },
);
const agent = weft.op(
  async function agent() {
    await plan();
    await llm('claude-sonnet-4-20250514', 3_000, 200);
    return llm('local-llama', 500, 50);
  },
  { name: 'agent' },
);

/** Every call of the project on the server, by op name and model. */
async function traced(url: string, project: string) {
  const calls = await listServerCalls(url, project);
  const root = calls.find((c) => c.parentId === null) as Call;
  const byModel = (model: string) =>
    calls.find((c) => c.opName === 'llm' && c.inputs.model === model) as Call;
  const byOp = (op: string) => calls.find((c) => c.opName === op) as Call;
  return { calls, root, byModel, byOp };
}

const costOf = (call: Call) => call.summary?.costUsd;

describe('cost from the SDK through the server and its read API', () => {
  it('prices each LLM call, and a parent’s cost is the sum of its children’s', async () => {
    const server = await startTestServer();
    const client = weft.init({ project: 'cost-tree', url: server.url, outbox: false, handleExit: false });
    await agent();
    expect(await client.flush()).toMatchObject({ sent: 6, pending: 0 });
    const { calls, root, byModel, byOp } = await traced(server.url, client.project);
    expect(calls).toHaveLength(6);

    // USD per million tokens from the built-in table: gpt-4o 2.5 / 10, gpt-4o-mini 0.15 / 0.6, claude-sonnet-4 3 / 15.
    expect(costOf(byModel('gpt-4o'))).toBeCloseTo((2_000 * 2.5 + 400 * 10) / 1e6, 12);
    expect(costOf(byModel('gpt-4o-mini'))).toBeCloseTo((1_000 * 0.15 + 100 * 0.6) / 1e6, 12);
    expect(costOf(byModel('claude-sonnet-4-20250514'))).toBeCloseTo((3_000 * 3 + 200 * 15) / 1e6, 12);
    expect(byModel('gpt-4o').summary?.usage?.['gpt-4o']?.costUsd).toBe(costOf(byModel('gpt-4o')));

    // An unpriced model: usage kept, no cost field anywhere — not 0.
    const llama = byModel('local-llama');
    expect(llama.summary?.usage?.['local-llama']).toEqual({
      requests: 1,
      inputTokens: 500,
      outputTokens: 50,
      totalTokens: 550,
    });
    expect(Object.hasOwn(llama.summary ?? {}, 'costUsd')).toBe(false);
    expect(Object.hasOwn(root.summary?.usage?.['local-llama'] ?? {}, 'costUsd')).toBe(false);

    // Parents: the sum of their children's, at each level.
    const planCost = (costOf(byModel('gpt-4o')) ?? 0) + (costOf(byModel('gpt-4o-mini')) ?? 0);
    expect(costOf(byOp('plan'))).toBeCloseTo(planCost, 12);
    const children = calls.filter((c) => c.parentId === root.id);
    expect(children).toHaveLength(3);
    expect(costOf(root)).toBeCloseTo(
      children.reduce((sum, c) => sum + (costOf(c) ?? 0), 0),
      12,
    );
    expect(Object.keys(root.summary?.usage ?? {}).sort()).toEqual([
      'claude-sonnet-4-20250514',
      'gpt-4o',
      'gpt-4o-mini',
      'local-llama',
    ]);
  });

  it('weft.init({ prices }) overrides and adds prices, and the server keeps what they give', async () => {
    const server = await startTestServer();
    const client = weft.init({
      project: 'cost-override',
      url: server.url,
      outbox: false,
      handleExit: false,
      prices: { 'gpt-4o-mini': { input: 10, output: 20 }, 'local-llama': { input: 1, output: 2 } },
    });
    await agent();
    await client.flush();
    const { root, byModel } = await traced(server.url, client.project);
    expect(costOf(byModel('gpt-4o-mini'))).toBeCloseTo((1_000 * 10 + 100 * 20) / 1e6, 12);
    expect(costOf(byModel('local-llama'))).toBeCloseTo((500 * 1 + 50 * 2) / 1e6, 12);
    // Not overridden: the built-in price.
    expect(costOf(byModel('gpt-4o'))).toBeCloseTo((2_000 * 2.5 + 400 * 10) / 1e6, 12);
    const expected = [
      (2_000 * 2.5 + 400 * 10) / 1e6,
      (1_000 * 10 + 100 * 20) / 1e6,
      (3_000 * 3 + 200 * 15) / 1e6,
      (500 * 1 + 50 * 2) / 1e6,
    ].reduce((a, b) => a + b);
    expect(costOf(root)).toBeCloseTo(expected, 12);
  });

  it('a trace that used only unpriced models has no cost on any call', async () => {
    const server = await startTestServer();
    const client = weft.init({ project: 'cost-none', url: server.url, outbox: false, handleExit: false });
    await weft.op(async () => llm('local-llama', 10, 5), { name: 'wrapper' })();
    await client.flush();
    const calls = await listServerCalls(server.url, client.project);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.summary?.usage?.['local-llama']?.totalTokens).toBe(15);
      expect(JSON.stringify(call.summary)).not.toContain('costUsd');
    }
  });
});
