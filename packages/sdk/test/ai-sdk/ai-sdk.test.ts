import { createOpenAI } from '@ai-sdk/openai';
import { context, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { CallSummary } from '@weft/protocol';
import * as ai from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { z } from 'zod';
// The source's init: its WeftClient is the type weft/ai-sdk's `client` option takes here.
import { init as initFromSource } from '../../src/index.js';
import { weftTelemetry, wrapAISDK } from '../../src/integrations/ai-sdk/index.js';
import { WeftSpanProcessor } from '../../src/otel/index.js';
import { resetWeft } from '../../src/testing/index.js';
import { type FakeProvider, type FakeReply, startFakeProvider } from '../fixtures/fake-provider/index.js';
import { startTestServer, type TestServer } from '@weft/test-server';
import { listServerCalls } from '../support/index.js';

let server: TestServer;
let provider: FakeProvider;
beforeAll(async () => {
  server = await startTestServer({ register: afterAll });
  provider = await startFakeProvider();
});
afterAll(async () => {
  await provider.close();
  await resetWeft();
});

const { generateText, streamText, generateObject, streamObject, embed, embedMany } = wrapAISDK(ai);
const openai = () => createOpenAI({ apiKey: 'test', baseURL: `${provider.url}/v1` });

/** The model's first step: it asks the `weather` tool about Paris (50 in, 10 out). */
const WEATHER_IN_PARIS = {
  kind: 'completion',
  completion: {
    model: 'gpt-4o',
    toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' }],
    finishReason: 'tool_calls',
    usage: { inputTokens: 50, outputTokens: 10 },
  },
} as const satisfies FakeReply;

describe('the AI SDK through wrapAISDK(ai)', () => {
  it('an agent-style generateText with a tool round-trip is one tree of Weft calls with usage and cost', async () => {
    const client = weft.init({ project: 'ai-sdk-agent', url: server.url, outbox: false, handleExit: false });
    provider.enqueue(WEATHER_IN_PARIS, {
      kind: 'completion',
      completion: { model: 'gpt-4o', text: 'Sunny in Paris.', usage: { inputTokens: 60, outputTokens: 5 } },
    });
    const lookup = weft.op(async (city: string) => ({ city, sky: 'sunny' }), { name: 'lookupWeather' });
    const agent = weft.op(
      async (question: string) => {
        const result = await generateText({
          model: openai().chat('gpt-4o'),
          prompt: question,
          tools: {
            weather: ai.tool({
              description: 'The weather in a city',
              inputSchema: z.object({ city: z.string() }),
              execute: async ({ city }) => lookup(city),
            }),
          },
          stopWhen: ai.stepCountIs(3),
        });
        return result.text;
      },
      { name: 'agent' },
    );
    expect(await agent('Weather in Paris?')).toBe('Sunny in Paris.');
    await client.flush();

    const calls = await listServerCalls(server.url, 'ai-sdk-agent');
    const byId = new Map(calls.map((c) => [c.id, c]));
    const parentName = (c: (typeof calls)[number]) =>
      c.parentId === null ? null : (byId.get(c.parentId)?.opName ?? 'missing');
    const tree = calls.map((c) => `${parentName(c)} > ${c.opName}`).sort();
    expect(tree).toEqual([
      'agent > ai.generateText',
      'ai.generateText > ai.generateText.doGenerate',
      'ai.generateText > ai.generateText.doGenerate',
      'ai.generateText > ai.toolCall',
      'ai.toolCall > lookupWeather',
      'null > agent',
    ]);
    const steps = calls.filter((c) => c.opName === 'ai.generateText.doGenerate');
    const usages = steps
      .map((c) => c.summary?.usage?.['gpt-4o'])
      .sort((a, b) => (a?.inputTokens ?? 0) - (b?.inputTokens ?? 0));
    expect(usages).toMatchObject([
      { inputTokens: 50, outputTokens: 10 },
      { inputTokens: 60, outputTokens: 5 },
    ]);
    for (const step of steps) expect(step.summary?.costUsd).toBeGreaterThan(0);
    const outer = calls.find((c) => c.opName === 'ai.generateText');
    expect(outer?.summary?.usage?.['gpt-4o']).toMatchObject({ inputTokens: 110, outputTokens: 15 });
    expect(outer?.summary?.costUsd).toBeGreaterThan(0);
    const tool = calls.find((c) => c.opName === 'ai.toolCall');
    expect(JSON.stringify(tool?.inputs)).toContain('Paris');
  });

  it("rolls the usage and cost of generateText and streamText up into the Weft op that called them (its summary, the server's call, the trace root)", async () => {
    const client = weft.init({ project: 'ai-sdk-rollup', url: server.url, outbox: false, handleExit: false });
    provider.enqueue(
      WEATHER_IN_PARIS,
      // The tool's own generateText, inside a Weft op the tool runs.
      {
        kind: 'completion',
        completion: { model: 'gpt-4o', text: 'sunny', usage: { inputTokens: 30, outputTokens: 3 } },
      },
      {
        kind: 'completion',
        completion: { model: 'gpt-4o', text: 'Sunny.', usage: { inputTokens: 60, outputTokens: 5 } },
      },
      {
        kind: 'completion',
        completion: { model: 'gpt-4o', text: 'Done.', usage: { inputTokens: 12, outputTokens: 7 } },
      },
    );
    const model = openai().chat('gpt-4o');
    const lookup = weft.op(
      async (city: string) => (await generateText({ model, prompt: `Sky over ${city}?` })).text,
      {
        name: 'lookupWeather',
      },
    );
    let summary: CallSummary | undefined;
    const agent = weft.op(
      async (question: string) => {
        const answer = await generateText({
          model,
          prompt: question,
          tools: {
            weather: ai.tool({
              inputSchema: z.object({ city: z.string() }),
              execute: async ({ city }) => lookup(city),
            }),
          },
          stopWhen: ai.stepCountIs(3),
        });
        const closing = streamText({ model, prompt: 'Sign off' });
        return `${answer.text} ${await closing.text}`;
      },
      { name: 'agent', onFinish: (call) => (summary = call.summary) },
    );
    // The request handler returns as soon as the agent does: both end before streamText's span does.
    const handle = weft.op(async (question: string) => agent(question), { name: 'handle' });
    expect(await handle('Weather in Paris?')).toBe('Sunny. Done.');
    await client.flush();

    // Every model call once: 50+30+60+12 in, 10+3+5+7 out.
    const expected = { inputTokens: 152, outputTokens: 25, totalTokens: 177 };
    expect(summary?.usage?.['gpt-4o']).toMatchObject(expected);
    expect(summary?.costUsd).toBeGreaterThan(0);
    const calls = await listServerCalls(server.url, 'ai-sdk-rollup');
    const named = (name: string) => calls.filter((c) => c.opName === name);
    const root = calls.find((c) => c.parentId === null);
    expect(root?.opName).toBe('handle');
    expect(root?.summary?.usage?.['gpt-4o']).toMatchObject(expected);
    expect(root?.summary?.costUsd).toBe(summary?.costUsd);
    const agentCall = named('agent')[0];
    expect(agentCall?.summary?.usage?.['gpt-4o']).toMatchObject(expected);
    expect(agentCall?.summary?.childCounts).toEqual({ success: 2, error: 0 });
    // The tool call shows what ran under it; the outer generateText its steps plus the tool's.
    expect(named('ai.toolCall')[0]?.summary?.usage?.['gpt-4o']).toMatchObject({
      inputTokens: 30,
      outputTokens: 3,
    });
    // The tool returned the string 'sunny': recorded as that string, not as its JSON text.
    expect(named('ai.toolCall')[0]?.output).toBe('sunny');
    expect(named('ai.toolCall')[0]?.inputs).toEqual({ city: 'Paris' });
    const outer = named('ai.generateText').find((c) => c.parentId === agentCall?.id);
    expect(outer?.summary?.usage?.['gpt-4o']).toMatchObject({ inputTokens: 140, outputTokens: 18 });
    expect(named('lookupWeather')[0]?.summary?.usage?.['gpt-4o']).toMatchObject({
      inputTokens: 30,
      outputTokens: 3,
    });
  });

  it('traces streamText, generateObject, streamObject, embed and embedMany with usage', async () => {
    const client = weft.init({ project: 'ai-sdk-all', url: server.url, outbox: false, handleExit: false });
    const model = openai().chat('gpt-4o');
    const streamed = streamText({ model, prompt: 'Say hello' });
    expect(await streamed.text).toBe('Hello from the fake provider.');
    provider.enqueue({
      kind: 'completion',
      completion: { model: 'gpt-4o', text: '{"name":"Ada"}', usage: { inputTokens: 20, outputTokens: 4 } },
    });
    const object = await generateObject({ model, schema: z.object({ name: z.string() }), prompt: 'A name' });
    expect(object.object).toEqual({ name: 'Ada' });
    provider.enqueue({
      kind: 'completion',
      completion: { model: 'gpt-4o', text: '{"name":"Bo"}', usage: { inputTokens: 21, outputTokens: 4 } },
    });
    const objectStream = streamObject({
      model,
      schema: z.object({ name: z.string() }),
      prompt: 'Another name',
    });
    // The AI SDK settles `object` once the stream is read.
    for await (const _partial of objectStream.partialObjectStream);
    expect(await objectStream.object).toEqual({ name: 'Bo' });
    const embedding = openai().embedding('text-embedding-3-small');
    const one = await embed({ model: embedding, value: 'hello' });
    expect(one.embedding.length).toBeGreaterThan(0);
    const many = await embedMany({ model: embedding, values: ['a', 'b'] });
    expect(many.embeddings).toHaveLength(2);
    await client.flush();

    const calls = await listServerCalls(server.url, 'ai-sdk-all');
    const roots = calls
      .filter((c) => c.parentId === null)
      .map((c) => c.opName)
      .sort();
    expect(roots).toEqual([
      'ai.embed',
      'ai.embedMany',
      'ai.generateObject',
      'ai.streamObject',
      'ai.streamText',
    ]);
    const byId = new Map(calls.map((c) => [c.id, c]));
    const children = calls
      .filter((c) => c.parentId !== null)
      .map((c) => `${byId.get(c.parentId as string)?.opName} > ${c.opName}`)
      .sort();
    expect(children).toEqual([
      'ai.embed > ai.embed.doEmbed',
      'ai.embedMany > ai.embedMany.doEmbed',
      'ai.generateObject > ai.generateObject.doGenerate',
      'ai.streamObject > ai.streamObject.doStream',
      'ai.streamText > ai.streamText.doStream',
    ]);
    // Every call has usage for its model, priced.
    for (const call of calls) {
      const model = call.opName.startsWith('ai.embed') ? 'text-embedding-3-small' : 'gpt-4o';
      expect(call.summary?.usage?.[model]?.inputTokens, `${call.opName} input tokens`).toBeGreaterThan(0);
      expect(call.summary?.costUsd, `${call.opName} cost`).toBeGreaterThan(0);
    }
    expect(calls.find((c) => c.opName === 'ai.streamObject')?.summary?.usage?.['gpt-4o']).toMatchObject({
      inputTokens: 21,
      outputTokens: 4,
    });
    // Each streamed model call has its time to first chunk as the summary field the UI shows.
    for (const name of ['ai.streamText.doStream', 'ai.streamObject.doStream']) {
      const ttft = calls.find((c) => c.opName === name)?.summary?.timeToFirstTokenMs;
      expect(ttft, `${name} time to first token`).toBeGreaterThanOrEqual(0);
    }
  });

  it('the same agent gives the same tree and usage through wrapAISDK, a WeftSpanProcessor of the app, and an OTLP export to /v1/traces', async () => {
    type Telemetry = { isEnabled: true; tracer?: Tracer } | undefined;
    /** One agent run in `project` with the AI SDK's spans going where `telemetry` says (undefined: wrapAISDK's default). */
    async function runAgent(project: string, telemetry: Telemetry, flushSpans: () => Promise<void>) {
      const client = weft.init({ project, url: server.url, outbox: false, handleExit: false });
      provider.enqueue(
        {
          kind: 'completion',
          completion: {
            model: 'gpt-4o',
            toolCalls: [{ id: 'call_1', name: 'add', arguments: '{"a":2,"b":3}' }],
            finishReason: 'tool_calls',
            usage: { inputTokens: 30, outputTokens: 8 },
          },
        },
        {
          kind: 'completion',
          completion: { model: 'gpt-4o', text: '5', usage: { inputTokens: 40, outputTokens: 1 } },
        },
      );
      const run = telemetry === undefined ? generateText : ai.generateText;
      const result = await run({
        model: openai().chat('gpt-4o'),
        prompt: 'What is 2 + 3?',
        tools: {
          add: ai.tool({
            inputSchema: z.object({ a: z.number(), b: z.number() }),
            execute: async ({ a, b }) => a + b,
          }),
        },
        stopWhen: ai.stepCountIs(3),
        ...(telemetry === undefined ? {} : { experimental_telemetry: telemetry }),
      });
      expect(result.text).toBe('5');
      await flushSpans();
      await client.flush();
      const calls = await listServerCalls(server.url, project);
      const byId = new Map(calls.map((c) => [c.id, c]));
      return calls
        .map((c) => ({
          path: `${c.parentId === null ? '' : `${byId.get(c.parentId)?.opName} > `}${c.opName}`,
          usage:
            c.summary?.usage?.['gpt-4o'] === undefined
              ? null
              : { in: c.summary.usage['gpt-4o'].inputTokens, out: c.summary.usage['gpt-4o'].outputTokens },
          costUsd: c.summary?.costUsd ?? null,
        }))
        .sort((a, b) => a.path.localeCompare(b.path) || (a.usage?.in ?? 0) - (b.usage?.in ?? 0));
    }

    const wrapped = await runAgent('ai-sdk-same-wrapped', undefined, async () => {});
    const processor = new WeftSpanProcessor();
    const appProvider = new BasicTracerProvider({ spanProcessors: [processor] });
    const viaProcessor = await runAgent(
      'ai-sdk-same-processor',
      { isEnabled: true, tracer: appProvider.getTracer('app') },
      () => processor.forceFlush(),
    );
    const exporter = new OTLPTraceExporter({
      url: `${server.url}/v1/traces`,
      headers: { 'x-weft-project': 'ai-sdk-same-otlp' },
    });
    const otlpProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
    const viaOtlp = await runAgent(
      'ai-sdk-same-otlp',
      { isEnabled: true, tracer: otlpProvider.getTracer('app') },
      () => otlpProvider.forceFlush(),
    );
    await otlpProvider.shutdown();

    expect(wrapped.map((c) => c.path)).toEqual([
      'ai.generateText',
      'ai.generateText > ai.generateText.doGenerate',
      'ai.generateText > ai.generateText.doGenerate',
      'ai.generateText > ai.toolCall',
    ]);
    expect(wrapped.find((c) => c.path === 'ai.generateText')?.usage).toEqual({ in: 70, out: 9 });
    expect(viaProcessor).toEqual(wrapped);
    expect(viaOtlp).toEqual(wrapped);
  });

  it('weftTelemetry() first used inside an op (no OTel context manager when the op started) still nests under the op', async () => {
    context.disable(); // as in an app that has not registered OpenTelemetry at all
    const client = initFromSource({
      project: 'ai-sdk-first-use',
      url: server.url,
      outbox: false,
      handleExit: false,
    });
    const ask = client.op(
      async () => {
        const result = await ai.generateText({
          model: openai().chat('gpt-4o'),
          prompt: 'Hi',
          experimental_telemetry: weftTelemetry({ client }),
        });
        return result.text;
      },
      { name: 'ask' },
    );
    expect(await ask()).toBe('Hello from the fake provider.');
    await client.flush();
    const calls = await listServerCalls(server.url, 'ai-sdk-first-use');
    const byId = new Map(calls.map((c) => [c.id, c]));
    const tree = calls
      .map((c) => `${c.parentId === null ? '' : `${byId.get(c.parentId)?.opName} > `}${c.opName}`)
      .sort();
    expect(tree).toEqual(['ai.generateText > ai.generateText.doGenerate', 'ask', 'ask > ai.generateText']);
  });
});
