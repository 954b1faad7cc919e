import { type CallComplete, type EvaluatorRule, routes } from '@weft/protocol';
import { type FakeProvider, rateLimited, startFakeProvider, startTestServer } from '@weft/test-server';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { callIdOf } from './support/calls.js';
import { get, post } from './support/http.js';
import { freshSingleServerStorageUrl } from './support/test-storage.js';

/** A server whose judge is the fake provider (OpenAI-compatible or Anthropic). */
async function startJudged(provider: FakeProvider, kind: 'openai' | 'anthropic' = 'openai') {
  const server = await startTestServer({
    storage: freshSingleServerStorageUrl(),
    register: false,
    monitoring: {
      tickMs: 20,
      judge: {
        provider: kind,
        baseUrl: kind === 'openai' ? `${provider.url}/v1` : provider.url,
        apiKey: 'sk-test-judge',
      },
    },
  });
  onTestFinished(() => server.close());
  return server;
}

async function fakeProvider() {
  const provider = await startFakeProvider();
  onTestFinished(() => provider.close());
  return provider;
}

function questions(count: number, salt: number): CallComplete[] {
  return Array.from({ length: count }, (_, i) => {
    const id = callIdOf(i, salt);
    return {
      type: 'complete',
      id,
      traceId: id,
      parentId: null,
      opName: 'answer',
      startedAt: 1_790_000_000_000 + i * 1_000,
      inputs: { question: `What is ${i} + ${i}?` },
      endedAt: 1_790_000_000_000 + i * 1_000 + 50,
      output: `${2 * i}`,
    };
  });
}

const judgeRule = (
  project: string,
  extra: Partial<Extract<EvaluatorRule['scorer'], { type: 'llm' }>> = {},
): EvaluatorRule => ({
  project,
  name: 'judge',
  filter: { opName: 'answer' },
  scorer: {
    type: 'llm',
    model: 'gpt-4o-mini',
    prompt: 'Question: {{inputs.question}}\nAnswer: {{output}}',
    scores: [
      { name: 'correct', type: 'boolean' },
      { name: 'quality', type: 'number', min: 0, max: 1 },
    ],
    concurrency: 1,
    ...extra,
  },
});

const verdict = (correct: boolean, quality: number) => ({
  kind: 'completion' as const,
  completion: {
    text: JSON.stringify({ correct, quality, reason: 'checked' }),
    usage: { inputTokens: 100, outputTokens: 20 },
  },
});

async function evaluator(url: string, project: string) {
  const reply = await get(url, routes.evaluatorList(project));
  expect(reply.status).toBe(200);
  return reply.body.evaluators[0];
}

async function feedbackOf(url: string, project: string, callId: string) {
  return (await get(url, routes.feedbackList(project, callId))).body.feedback as {
    name: string;
    value: unknown;
    source: string;
  }[];
}

describe('the LLM judge (server-run evaluators) against a local fake provider', () => {
  it('scores matching calls as feedback, traces each judge request with usage and cost, and keeps the key out of every response', async () => {
    const provider = await fakeProvider();
    provider.enqueue(verdict(true, 0.9), verdict(false, 0.2), verdict(true, 1));
    const server = await startJudged(provider);
    const project = 'judge-scores';
    expect((await post(server.url, routes.evaluatorPut(), judgeRule(project))).status).toBe(200);
    const calls = questions(3, 1);
    await post(server.url, routes.callBatch(), { project, items: calls });
    await vi.waitFor(async () => expect((await evaluator(server.url, project)).scored).toBe(3), {
      timeout: 20_000,
    });

    const first = await feedbackOf(server.url, project, calls[0]?.id as string);
    expect(first).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'correct',
          value: true,
          source: 'evaluator:judge',
          comment: 'checked',
        }),
        expect.objectContaining({ name: 'quality', value: 0.9, source: 'evaluator:judge' }),
      ]),
    );
    const prompt = (provider.requests[0]?.body as { messages: { content: string }[] } | undefined)
      ?.messages[1]?.content;
    expect(prompt).toContain('Question: What is 0 + 0?\nAnswer: 0');
    expect(provider.requests[0]?.headers.authorization).toBe('Bearer sk-test-judge');

    const judged = await post(server.url, routes.callQuery(), { project, opName: 'weft.evaluator.judge' });
    expect(judged.body.calls).toHaveLength(3);
    const trace = judged.body.calls[0];
    expect(trace.attributes['weft.evaluator']).toBe('judge');
    expect(trace.summary.usage['gpt-4o-mini']).toMatchObject({ inputTokens: 100, outputTokens: 20 });
    expect(trace.summary.costUsd).toBeGreaterThan(0);
    const status = await evaluator(server.url, project);
    expect(status.costUsd).toBeCloseTo(3 * trace.summary.costUsd, 12);
    expect(status.costTodayUsd).toBeCloseTo(status.costUsd, 12);
    // The judge's calls are never evaluated themselves, and the key is nowhere in what the server answers.
    expect(provider.requests).toHaveLength(3);
    const everything = JSON.stringify([
      status,
      judged.body,
      (await get(server.url, routes.evaluatorActivity(project, 'judge'))).body,
    ]);
    expect(everything).not.toContain('sk-test-judge');
  });

  it('records a malformed answer as that call’s error and scores the rest', async () => {
    const provider = await fakeProvider();
    provider.enqueue(
      verdict(true, 0.5),
      { kind: 'completion', completion: { text: 'I think it is fine.' } },
      { kind: 'completion', completion: { text: '{"correct": "yes", "quality": 3}' } },
      verdict(false, 0),
    );
    const server = await startJudged(provider);
    const project = 'judge-malformed';
    await post(server.url, routes.evaluatorPut(), judgeRule(project));
    const calls = questions(4, 2);
    await post(server.url, routes.callBatch(), { project, items: calls });
    await vi.waitFor(
      async () => expect(await evaluator(server.url, project)).toMatchObject({ scored: 2, failed: 2 }),
      { timeout: 20_000 },
    );
    const activity = (await get(server.url, routes.evaluatorActivity(project, 'judge'))).body;
    const messages = activity.errors.map((e: { message: string }) => e.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/has no JSON object: "I think it is fine\."/),
        expect.stringMatching(/score correct must be true or false, got "\\"yes\\""/),
      ]),
    );
    expect(await feedbackOf(server.url, project, calls[3]?.id as string)).toHaveLength(2);
  });

  it('waits out a 429 (Retry-After) with its cursor kept, then scores every call once', async () => {
    const provider = await fakeProvider();
    provider.enqueue(verdict(true, 1), rateLimited('openai', 1), verdict(true, 0.5), verdict(false, 0.1));
    const server = await startJudged(provider);
    const project = 'judge-429';
    await post(server.url, routes.evaluatorPut(), judgeRule(project));
    const calls = questions(3, 3);
    await post(server.url, routes.callBatch(), { project, items: calls });
    await vi.waitFor(
      async () => expect((await evaluator(server.url, project)).paused).toMatch(/answered 429/),
      {
        timeout: 20_000,
      },
    );
    await vi.waitFor(
      async () => expect(await evaluator(server.url, project)).toMatchObject({ scored: 3, paused: null }),
      {
        timeout: 20_000,
      },
    );
    // Four requests: the 429 one was asked again, the call judged before it was not.
    expect(provider.requests).toHaveLength(4);
    for (const call of calls) expect(await feedbackOf(server.url, project, call.id)).toHaveLength(2);
  });

  it('pauses at the daily cost cap with the rest of the calls kept for later, and says so', async () => {
    const provider = await fakeProvider();
    provider.enqueue(verdict(true, 1), verdict(true, 1), verdict(true, 1));
    const server = await startJudged(provider);
    const project = 'judge-cap';
    // One judge request costs 100 × $0.15/M + 20 × $0.60/M = $0.000027: the cap allows one.
    await post(server.url, routes.evaluatorPut(), judgeRule(project, { dailyCostCapUsd: 0.00002 }));
    await post(server.url, routes.callBatch(), { project, items: questions(3, 4) });
    await vi.waitFor(
      async () => expect((await evaluator(server.url, project)).paused).toMatch(/daily cost cap reached/),
      { timeout: 20_000 },
    );
    const status = await evaluator(server.url, project);
    expect(status.scored).toBe(1);
    expect(status.costTodayUsd).toBeGreaterThan(0.00002);
    expect(provider.requests).toHaveLength(1);
  });

  it('judges through the Anthropic messages API too', async () => {
    const provider = await fakeProvider();
    provider.enqueue(verdict(true, 0.75));
    const server = await startJudged(provider, 'anthropic');
    const project = 'judge-anthropic';
    await post(server.url, routes.evaluatorPut(), {
      ...judgeRule(project),
      scorer: { ...judgeRule(project).scorer, model: 'claude-3-5-haiku-latest' },
    });
    const [call] = questions(1, 5);
    await post(server.url, routes.callBatch(), { project, items: [call] });
    await vi.waitFor(async () => expect((await evaluator(server.url, project)).scored).toBe(1), {
      timeout: 20_000,
    });
    expect(provider.requests[0]?.path).toBe('/v1/messages');
    expect(provider.requests[0]?.headers['x-api-key']).toBe('sk-test-judge');
    expect(await feedbackOf(server.url, project, call?.id as string)).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'quality', value: 0.75 })]),
    );
  });
});
