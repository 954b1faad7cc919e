import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import { ROOT_CONTEXT, trace, type Attributes } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import * as ai from 'ai';
import OpenAI from 'openai';
import { flush, op } from '@weft/sdk';
import { wrapAnthropic } from '@weft/sdk/anthropic';
import { wrapOpenAI } from '@weft/sdk/openai';
import { z } from 'zod';
import type { ApiSeeder } from './api-seed.js';
import type { FakeProvider } from './fake-provider.js';

/** A 1 x 1 PNG, inline, as a user would attach a screenshot. */
export const PIXEL_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Op names of the model calls recorded, by the shape they show (see {@link recordLlmCalls}). */
export type RecordedShape =
  | 'openai-chat-tools'
  | 'openai-chat-stream'
  | 'openai-refusal'
  | 'openai-responses'
  | 'anthropic-tools'
  | 'ai-sdk-otlp'
  | 'genai-otlp'
  | 'openinference-otlp';

/** Each recorded call: its display name is the shape, so the test finds it by name. */
export type RecordedCalls = Record<RecordedShape, { id: string; traceId: string }>;

type Found = {
  id: string;
  traceId: string;
  opName: string;
  displayName: string | null;
  parentId: string | null;
  startedAt: number;
};
const byStart = (a: Found, b: Found) => a.startedAt - b.startedAt;

/**
 * Records one model call of each message shape the UI renders, the way a
 * user's program would: the real `openai` and `@anthropic-ai/sdk` clients
 * wrapped by the SDK against the fake provider; the AI SDK's own telemetry
 * and hand-set GenAI / OpenInference attributes sent as OTLP spans by the
 * real OpenTelemetry exporter. The default client must be initialised for
 * `seeder.project`.
 */
export async function recordLlmCalls(
  provider: FakeProvider,
  seeder: ApiSeeder,
  serverUrl: string,
): Promise<RecordedCalls> {
  const openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0 }));
  const anthropic = wrapAnthropic(
    new Anthropic({ apiKey: 'sk-ant-test', baseURL: provider.url, maxRetries: 0 }),
  );
  const named = <T>(shape: RecordedShape, fn: () => Promise<T>) =>
    op(fn, { name: 'scenario', displayName: shape })();

  const weatherTool = {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  };
  // A tool round trip: the second request carries the tool call and its result.
  provider.enqueue(
    {
      kind: 'completion',
      completion: {
        toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
        usage: { inputTokens: 80, outputTokens: 12 },
      },
    },
    {
      kind: 'completion',
      completion: { text: 'It is sunny in Paris,\n22 °C.', usage: { inputTokens: 120, outputTokens: 9 } },
    },
  );
  await named('openai-chat-tools', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are a weather assistant.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is the weather where this photo was taken?' },
          { type: 'image_url', image_url: { url: PIXEL_PNG } },
        ],
      },
    ];
    const first = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools: [weatherTool] });
    const assistant = first.choices[0]!.message;
    messages.push(assistant, {
      role: 'tool',
      tool_call_id: 'call_w1',
      content: '{"sky":"sunny","celsius":22}',
    });
    return openai.chat.completions.create({
      model: 'gpt-4o',
      messages,
      tools: [weatherTool],
      temperature: 0.3,
    });
  });

  provider.enqueue({
    kind: 'completion',
    completion: {
      text: 'Streaming, word by word.',
      usage: { inputTokens: 1_000, outputTokens: 200, cachedInputTokens: 400, reasoningTokens: 50 },
    },
  });
  await named('openai-chat-stream', async () => {
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Stream me something.' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    return text;
  });

  provider.enqueue({ kind: 'completion', completion: { refusal: 'I can’t help with that.' } });
  await named('openai-refusal', () =>
    openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Help me pick a lock.' }],
    }),
  );

  provider.enqueue({
    kind: 'completion',
    completion: {
      text: 'Checking the calendar.',
      toolCalls: [{ id: 'fc_1', name: 'find_slot', arguments: '{"day":"Monday"}' }],
    },
  });
  await named('openai-responses', () =>
    openai.responses.create({
      model: 'gpt-4o',
      instructions: 'You book meetings.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Book me a slot on Monday.' }] }],
      tools: [
        {
          type: 'function',
          name: 'find_slot',
          parameters: { type: 'object', properties: {} },
          strict: false,
        },
      ],
    }),
  );

  provider.enqueue({ kind: 'completion', completion: { text: 'The file has 3 lines.' } });
  await named('anthropic-tools', () =>
    anthropic.messages.create({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 512,
      system: 'You read files.',
      tools: [
        { name: 'read_file', description: 'Reads a file', input_schema: { type: 'object', properties: {} } },
      ],
      messages: [
        { role: 'user', content: 'How long is notes.txt?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'I should read the file first.', signature: 'sig' },
            { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a\nb\nc' }] },
      ],
    }),
  );
  await flush();

  // OTLP: the AI SDK's own telemetry, and spans as GenAI and OpenInference instrumentations write them.
  const exporter = new OTLPTraceExporter({
    url: `${serverUrl}/v1/traces`,
    headers: { 'x-weft-project': seeder.project },
  });
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = tracerProvider.getTracer('ui-fixtures');
  provider.enqueue(
    {
      kind: 'completion',
      completion: {
        toolCalls: [{ id: 'call_ai1', name: 'lookup', arguments: '{"term":"weft"}' }],
        usage: { inputTokens: 40, outputTokens: 8 },
      },
    },
    {
      kind: 'completion',
      completion: { text: 'Weft is the yarn across the warp.', usage: { inputTokens: 60, outputTokens: 9 } },
    },
  );
  await ai.generateText({
    model: createOpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1` }).chat('gpt-4o-mini'),
    system: 'You define words.',
    prompt: 'What is weft?',
    tools: {
      lookup: ai.tool({
        description: 'Looks a term up',
        inputSchema: z.object({ term: z.string() }),
        execute: async () => 'the crosswise yarn',
      }),
    },
    stopWhen: ai.stepCountIs(3),
    experimental_telemetry: { isEnabled: true, tracer },
  });
  const span = (name: string, attributes: Attributes) => {
    const s = tracer.startSpan(name, { attributes }, ROOT_CONTEXT);
    s.end();
    return trace.setSpan(ROOT_CONTEXT, s);
  };
  span('genai-otlp', {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': 'gpt-4o-mini',
    'gen_ai.usage.input_tokens': 30,
    'gen_ai.usage.output_tokens': 7,
    'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Answer in French.' }]),
    'gen_ai.input.messages': JSON.stringify([
      { role: 'user', parts: [{ type: 'text', content: 'Good morning!' }] },
    ]),
    'gen_ai.output.messages': JSON.stringify([
      { role: 'assistant', parts: [{ type: 'text', content: 'Bonjour !' }], finish_reason: 'stop' },
    ]),
  });
  span('openinference-otlp', {
    'openinference.span.kind': 'LLM',
    'llm.model_name': 'gpt-4o-mini',
    'llm.input_messages.0.message.role': 'system',
    'llm.input_messages.0.message.content': 'You count.',
    'llm.input_messages.1.message.role': 'user',
    'llm.input_messages.1.message.content': 'Count to three.',
    'llm.output_messages.0.message.role': 'assistant',
    'llm.output_messages.0.message.content': '1, 2, 3',
    'llm.token_count.prompt': 12,
    'llm.token_count.completion': 5,
  });
  await tracerProvider.forceFlush();
  await tracerProvider.shutdown();

  return findRecorded(seeder);
}

/** The model call of each scenario: the scenario op's LLM child, or the OTLP span named after the shape. */
async function findRecorded(seeder: ApiSeeder): Promise<RecordedCalls> {
  const { calls } = await seeder.post<{ calls: Found[] }>('/v1/calls/query', {
    project: seeder.project,
    limit: 1_000,
  });
  const byId = new Map(calls.map((c) => [c.id, c]));
  const out: Partial<RecordedCalls> = {};
  const llmChildren = (parent: Found) =>
    calls.filter((c) => c.parentId === parent.id && /^(openai|anthropic)\./.test(c.opName)).sort(byStart);
  for (const c of calls) {
    if (c.opName === 'scenario' && c.displayName) {
      const last = llmChildren(c).at(-1);
      if (last) out[c.displayName as RecordedShape] = { id: last.id, traceId: last.traceId };
    }
  }
  // The AI SDK's second model step (after the tool call): `ai.generateText.doGenerate`.
  const steps = calls.filter((c) => c.opName === 'ai.generateText.doGenerate');
  const lastStep = steps.sort(byStart).at(-1);
  if (lastStep) out['ai-sdk-otlp'] = { id: lastStep.id, traceId: lastStep.traceId };
  for (const shape of ['genai-otlp', 'openinference-otlp'] as const) {
    const c = calls.find((x) => x.opName === shape);
    if (c) out[shape] = { id: c.id, traceId: c.traceId };
  }
  const missing = (
    [
      'openai-chat-tools',
      'openai-chat-stream',
      'openai-refusal',
      'openai-responses',
      'anthropic-tools',
      'ai-sdk-otlp',
      'genai-otlp',
      'openinference-otlp',
    ] as const
  ).filter((s) => out[s] === undefined);
  if (missing.length > 0)
    throw new Error(`Not recorded: ${missing.join(', ')} (${calls.length} calls, ${byId.size} ids)`);
  return out as RecordedCalls;
}
