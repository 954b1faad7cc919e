import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { hasCode } from '@weft/sdk';
import { wrapOpenAI } from '@weft/sdk/openai';
import { fork, now, RecordedError, ReplayDivergenceError, replay, seededRandom } from '@weft/sdk/replay';
import { type AgentOptions, makeAgent } from '../fixtures/replay-agent.js';
import { setup } from '../integrations/setup.js';
import { runChild } from '../support/index.js';

function openaiAt(url: string) {
  return wrapOpenAI(new OpenAI({ apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 }));
}

/** Replies "reply 0", "reply 1", … to the next requests. */
function enqueueReplies(provider: Awaited<ReturnType<typeof setup>>['provider'], count: number, from = 0) {
  for (let i = from; i < from + count; i++) {
    provider.enqueue({
      kind: 'completion',
      completion: { text: `reply ${i}`, usage: { inputTokens: 10, outputTokens: 2 } },
    });
  }
}

/** Records a 3-step run of the agent; returns its trace id. */
async function record(project: string, steps = 3, options: AgentOptions = {}) {
  const env = await setup(project);
  const app = makeAgent(openaiAt(env.provider.url), options);
  enqueueReplies(env.provider, steps);
  const output = await app.agent('find the answer', steps);
  const calls = await env.calls();
  const root = calls.find((call) => call.parentId === null);
  if (root === undefined) throw new Error('no root recorded');
  return { ...env, app, output, traceId: root.id, recorded: calls };
}

describe('replay', () => {
  it('strict: serves every model and tool call from the record: 0 provider requests, no tool body runs, same output, a new trace linked to the original with served calls marked', async () => {
    const { provider, app, output, traceId, recorded, calls } = await record('replay-strict');
    const requestsBefore = provider.requests.length;
    const toolRunsBefore = app.counts.search;

    const result = await replay(traceId, app.agent);

    expect(result.failed).toBe(false);
    expect(result.output).toBe(output);
    expect(provider.requests.length).toBe(requestsBefore);
    expect(app.counts.search).toBe(toolRunsBefore);
    expect(result.served).toBe(6); // 3 steps × (model call, search)
    expect(result.live).toBe(3); // the steps run again, so their calls are matched
    expect(result.replayOf).toBe(traceId);
    expect(result.traceId).not.toBe(traceId);
    const replayed = (await calls()).filter((call) => call.traceId === result.traceId);
    expect(replayed).toHaveLength(recorded.length);
    const root = replayed.find((call) => call.parentId === null);
    expect(root?.attributes['weft.replay.of']).toBe(traceId);
    expect(root?.inputs).toEqual(recorded.find((call) => call.id === traceId)?.inputs);
    const served = replayed.filter((call) => call.attributes['weft.replay.served'] !== undefined);
    expect(served.map((call) => call.opName).sort()).toEqual(
      [...Array(3).fill('openai.chat.completions.create'), ...Array(3).fill('search')].sort(),
    );
    const recordedIds = new Set(recorded.map((call) => call.id));
    for (const call of served)
      expect(recordedIds.has(call.attributes['weft.replay.served'] as string)).toBe(true);
    // A served model call spent nothing: no usage of its own.
    expect(root?.summary?.usage).toBeUndefined();
  });

  it('with the tools live: the tool bodies run, the model is served', async () => {
    const { provider, app, traceId } = await record('replay-tools-live');
    const requestsBefore = provider.requests.length;
    const toolRunsBefore = app.counts.search;

    const result = await replay(traceId, app.agent, { live: ['search'] });

    expect(result.failed).toBe(false);
    expect(app.counts.search - toolRunsBefore).toBe(3);
    expect(provider.requests.length).toBe(requestsBefore);
    expect(result.served).toBe(3);
    expect(result.live).toBe(6);
  });

  it('fork with an edited tool output: the steps after it run live (exactly the expected model calls), and the fork links back to the original and its step', async () => {
    const { provider, app, traceId, recorded, calls } = await record('replay-fork', 4);
    const requestsBefore = provider.requests.length;
    const forkStep = recorded.find((call) => call.opName === 'search' && call.inputs.query === 'reply 1 #1');
    enqueueReplies(provider, 2, 100);

    const result = await fork(traceId, app.agent, {
      at: 'agent/step[1]/search',
      output: { hits: ['edited'] },
    });

    expect(result.failed).toBe(false);
    expect(provider.requests.length - requestsBefore).toBe(2); // steps 2 and 3 ask the model again
    expect(JSON.stringify(provider.requests.at(-2)?.body)).toContain('Found: edited');
    expect(result.output).toBe('reply 101');
    const forked = (await calls()).filter((call) => call.traceId === result.traceId);
    const root = forked.find((call) => call.parentId === null);
    expect(root?.attributes['weft.replay.of']).toBe(traceId);
    expect(root?.attributes['weft.fork.at']).toBe(forkStep?.id);
    expect(root?.attributes['weft.fork.path']).toBe('agent/step[1]/search[0]');
    const atFork = forked.find((call) => call.id === result.forkedAt);
    expect(atFork?.attributes['weft.fork.edited']).toBe('output');
    expect(atFork?.output).toEqual({ hits: ['edited'] });
  });

  it('fork with edited arguments at a call id: that call and everything after it run live', async () => {
    const { provider, app, traceId, recorded } = await record('replay-fork-args', 3);
    const requestsBefore = provider.requests.length;
    const lastModelCall = recorded.filter((call) => call.opName === 'openai.chat.completions.create').at(-1);
    enqueueReplies(provider, 1, 200);

    const result = await fork(traceId, app.agent, {
      at: lastModelCall?.id as string,
      args: ([request, ...rest]) => [{ ...(request as object), temperature: 0 }, ...rest],
    });

    expect(provider.requests.length - requestsBefore).toBe(1);
    expect(provider.requests.at(-1)?.body).toMatchObject({ temperature: 0 });
    expect(result.output).toBe('reply 200');
  });

  it('a nondeterministic value is a divergence at the step it enters, never served a wrong value silently', async () => {
    const env = await setup('replay-nondeterministic');
    const app = makeAgent(openaiAt(env.provider.url), { nondeterministic: true });
    enqueueReplies(env.provider, 3);
    await app.agent('find the answer', 3);
    const traceId = (await env.calls()).find((call) => call.parentId === null)?.id as string;
    const requestsBefore = env.provider.requests.length;

    const strict = await replay(traceId, app.agent);

    expect(strict.failed).toBe(true);
    expect(strict.error).toBeInstanceOf(ReplayDivergenceError);
    expect(hasCode(strict.error, 'WEFT_REPLAY_DIVERGED')).toBe(true);
    expect(strict.divergence).toMatchObject({
      opName: 'step',
      path: 'agent/step[1]',
      input: 'messages[2].content',
    });
    expect((strict.error as Error).message).toContain('step at step agent/step[1]');
    expect(env.provider.requests.length).toBe(requestsBefore);

    enqueueReplies(env.provider, 2, 300);
    const lenient = await replay(traceId, app.agent, { mode: 'live-after-divergence' });
    expect(lenient.failed).toBe(false);
    expect(lenient.divergence?.path).toBe('agent/step[1]');
    expect(env.provider.requests.length - requestsBefore).toBe(2); // steps 1 and 2 run live
    expect(lenient.output).toBe('reply 301');
  });

  it('concurrent tool calls are matched by op and inputs, whatever order they start or finish in', async () => {
    const { calls } = await setup('replay-concurrent');
    let reversed = false;
    const lookup = weft.op(async function lookup(city: string) {
      await new Promise((resolve) => setTimeout(resolve, city.length * 3));
      return `weather in ${city}: ${Math.random()}`;
    });
    const agent = weft.op(async function agent(cities: string[]) {
      const order = reversed ? [...cities].reverse() : cities;
      const results = await Promise.all(order.map((city) => lookup(city)));
      return Object.fromEntries(order.map((city, i) => [city, results[i]]));
    });
    const recordedOutput = await agent(['Paris', 'Oslo', 'Buenos Aires', 'Rome']);
    const traceId = (await calls()).find((call) => call.parentId === null)?.id as string;

    reversed = true;
    const result = await replay(traceId, agent);

    expect(result.failed).toBe(false);
    expect(result.served).toBe(4);
    expect(result.output).toEqual(recordedOutput);
  });

  it('a recorded failure is served as the recorded error, without running the op', async () => {
    const { calls } = await setup('replay-recorded-error');
    let runs = 0;
    const flaky = weft.op(async function flaky(n: number) {
      runs++;
      if (n === 2) throw Object.assign(new RangeError('n is too large'), { code: 'E_RANGE' });
      return n;
    });
    const agent = weft.op(async function agent() {
      const got: unknown[] = [];
      for (const n of [1, 2]) {
        try {
          got.push(await flaky(n));
        } catch (error) {
          got.push(error);
        }
      }
      return got.map((g) => (g instanceof Error ? `${g.name}: ${g.message}` : g));
    });
    await agent();
    const traceId = (await calls()).find((call) => call.parentId === null)?.id as string;
    runs = 0;
    let served: unknown;
    const spy = weft.op(async function agent() {
      const got: unknown[] = [];
      for (const n of [1, 2]) {
        try {
          got.push(await flaky(n));
        } catch (error) {
          served = error;
          got.push(error);
        }
      }
      return got.map((g) => (g instanceof Error ? `${g.name}: ${g.message}` : g));
    });

    const result = await replay(traceId, spy);

    expect(runs).toBe(0);
    expect(result.output).toEqual([1, 'RangeError: n is too large']);
    expect(served).toBeInstanceOf(RecordedError);
    expect((served as RecordedError).code).toBe('E_RANGE');
  });

  it('weft.now() and seededRandom() are served from the record, so time and randomness replay strictly', async () => {
    const { calls } = await setup('replay-determinism');
    const agent = weft.op(async function agent() {
      const random = seededRandom();
      return { at: now(), draws: [random(), random(), random()] };
    });
    const recordedOutput = await agent();
    const traceId = (await calls()).find((call) => call.parentId === null)?.id as string;
    await new Promise((resolve) => setTimeout(resolve, 5));

    const result = await replay(traceId, agent);

    expect(result.failed).toBe(false);
    expect(result.output).toEqual(recordedOutput);
    expect(result.served).toBe(2);
  });

  it('names what is missing: an unknown trace, an unknown fork step, an entry that is not an op', async () => {
    const { app, traceId } = await record('replay-not-found', 1);
    await expect(replay('0190f0a0-0000-7000-8000-000000000000', app.agent)).rejects.toMatchObject({
      code: 'WEFT_REPLAY_NOT_FOUND',
      message: expect.stringContaining('No trace 0190f0a0-0000-7000-8000-000000000000'),
    });
    await expect(fork(traceId, app.agent, { at: 'agent/step[7]', output: 1 })).rejects.toMatchObject({
      code: 'WEFT_REPLAY_NOT_FOUND',
      message: expect.stringContaining('no step "agent/step[7]"'),
    });
    await expect(replay(traceId, async () => 1)).rejects.toMatchObject({ code: 'WEFT_INVALID_OPTIONS' });
  });
});

describe('replay in a fresh process', () => {
  it('reads the recorded values from the server and serves them: same output, 0 provider requests', async () => {
    // Context and tool results of ~2 KB: the values are stored once by digest and read back by digest.
    const agentOptions = { growth: 2_000, hitBytes: 2_000 };
    const { provider, output, traceId, client, calls } = await record(
      'replay-fresh-process',
      3,
      agentOptions,
    );
    const requestsBefore = provider.requests.length;

    const child = await runChild(fileURLToPath(new URL('../fixtures/replay-child.ts', import.meta.url)), {
      env: {
        WEFT_URL: client.url,
        WEFT_PROJECT: client.project,
        TRACE_ID: traceId,
        PROVIDER_URL: provider.url,
        AGENT_OPTIONS: JSON.stringify(agentOptions),
      },
    });
    const line = await child.waitForLine(/^result /);
    expect((await child.exited).code).toBe(0);

    const result = JSON.parse(line.slice('result '.length));
    expect(result).toMatchObject({ output, failed: false, served: 6, toolRuns: 0 });
    expect(provider.requests.length).toBe(requestsBefore);
    const replayed = (await calls()).filter((call) => call.traceId === result.traceId);
    expect(replayed.find((call) => call.parentId === null)?.attributes['weft.replay.of']).toBe(traceId);
  });
});
