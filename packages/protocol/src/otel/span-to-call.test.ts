import { describe, expect, it } from 'vitest';
import { callComplete } from '../schemas/calls.js';
import type { OtelAttributes, OtelEvent, OtelSpan } from './otel-span.js';
import { type SpanMapping, spanToCall } from './span-to-call.js';

const TRACE = '0195f3a27c1d7a008f3e1b2c3d4e5f60';
const SPAN = '9a8b7c6d5e4f3a2b';
const PARENT = '1111222233334444';

function span(attributes: OtelAttributes, extra: Partial<OtelSpan> = {}): OtelSpan {
  return {
    traceId: TRACE,
    spanId: SPAN,
    parentSpanId: PARENT,
    name: 'chat gpt-4o',
    kind: 'client',
    startTimeUnixNano: 1_700_000_000_000_000_000n,
    endTimeUnixNano: '1700000000250500000',
    attributes,
    ...extra,
  };
}

function mapped(mapping: SpanMapping) {
  if (mapping.status !== 'mapped') throw new Error(`rejected: ${mapping.reason}`);
  // Every mapped call is a valid wire record.
  expect(callComplete.safeParse(mapping.call).success).toBe(true);
  return mapping;
}

const event = (name: string, attributes: OtelAttributes): OtelEvent => ({
  name,
  timeUnixNano: 1n,
  attributes,
});

describe('spanToCall', () => {
  it('maps ids, times, name and parent by the one id mapping', () => {
    const { call } = mapped(spanToCall(span({}), undefined));
    expect(call).toMatchObject({
      id: '0195f3a2-7c1d-7a00-9a8b-7c6d5e4f3a2b',
      traceId: '0195f3a2-7c1d-7a00-8f3e-1b2c3d4e5f60',
      parentId: '0195f3a2-7c1d-7a00-1111-222233334444',
      opName: 'chat gpt-4o',
      startedAt: 1_700_000_000_000,
      endedAt: 1_700_000_000_250.5,
      summary: { latencyMs: 250.5, status: 'success' },
      attributes: { 'otel.kind': 'client' },
    });
  });

  it.each([undefined, '', '0000000000000000'])(
    'makes a root of a span whose parent is %j',
    (parentSpanId) => {
      expect(mapped(spanToCall(span({}, { parentSpanId }), undefined)).call.parentId).toBeNull();
    },
  );

  it.each([
    ['zero trace id', { traceId: '0'.repeat(32) }],
    ['short span id', { spanId: 'abc' }],
    ['uppercase trace id', { traceId: TRACE.toUpperCase() }],
    ['bad parent', { parentSpanId: 'not-hex-at-all!!' }],
    ['bad start time', { startTimeUnixNano: 'yesterday' }],
  ] as const)('rejects a span with a %s, naming it', (_, extra) => {
    const mapping = spanToCall(span({}, extra as Partial<OtelSpan>), undefined);
    expect(mapping.status).toBe('rejected');
  });

  it('reads the current gen_ai conventions: messages, system, usage with cache and reasoning, cost', () => {
    const input = [{ role: 'user', parts: [{ type: 'text', content: 'Hi' }] }];
    const output = [
      { role: 'assistant', parts: [{ type: 'text', content: 'Hello' }], finish_reason: 'stop' },
    ];
    const { call, sessionId } = mapped(
      spanToCall(
        span({
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.response.model': 'gpt-4o-2024-08-06',
          'gen_ai.input.messages': JSON.stringify(input),
          'gen_ai.output.messages': JSON.stringify(output),
          'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief' }]),
          'gen_ai.usage.input_tokens': 1_000_000,
          'gen_ai.usage.output_tokens': 100_000,
          'gen_ai.usage.cache_read.input_tokens': 400_000,
          'gen_ai.usage.reasoning.output_tokens': 10,
          'gen_ai.conversation.id': 'conv-1',
        }),
        { attributes: { 'service.name': 'app' } },
      ),
    );
    expect(call.inputs).toEqual({ system: [{ type: 'text', content: 'Be brief' }], messages: input });
    expect(call.output).toEqual(output[0]);
    // gpt-4o: $2.50 in, $1.25 cached, $10 out per million.
    expect(call.summary?.usage).toEqual({
      'gpt-4o-2024-08-06': {
        requests: 1,
        inputTokens: 1_000_000,
        outputTokens: 100_000,
        totalTokens: 1_100_000,
        cachedInputTokens: 400_000,
        reasoningTokens: 10,
        costUsd: 0.6 * 2.5 + 0.4 * 1.25 + 0.1 * 10,
      },
    });
    expect(call.summary?.costUsd).toBe(3);
    expect(sessionId).toBe('conv-1');
    expect(call.sessionId).toBe('conv-1');
    expect(call.attributes).toMatchObject({
      'weft.session.id': 'conv-1',
      'gen_ai.request.model': 'gpt-4o',
      'otel.resource': { 'service.name': 'app' },
    });
    // Messages moved into inputs/output, token counts moved into usage, are not kept twice.
    for (const key of [
      'gen_ai.input.messages',
      'gen_ai.output.messages',
      'gen_ai.usage.input_tokens',
      'gen_ai.usage.output_tokens',
      'gen_ai.usage.cache_read.input_tokens',
      'gen_ai.usage.reasoning.output_tokens',
    ]) {
      expect(call.attributes).not.toHaveProperty([key]);
    }
  });

  it('parses JSON text nested up to 64 levels, keeps deeper text as sent, whatever brackets its strings hold', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    const argumentsOf = (text: string) =>
      mapped(spanToCall(span({ 'gen_ai.tool.call.arguments': text }), undefined)).call.inputs;
    expect(argumentsOf(nested(64))).toEqual({ input: JSON.parse(nested(64)) });
    expect(argumentsOf(nested(65))).toEqual({ input: nested(65) });
    const bracketsInText = JSON.stringify({ code: '{['.repeat(100) });
    expect(argumentsOf(bracketsInText)).toEqual({ code: '{['.repeat(100) });
  });

  it('keeps as attributes the token-count attributes that did not go into usage', () => {
    const { call } = mapped(
      spanToCall(
        span({
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.usage.input_tokens': 10,
          // A second spelling of a count already read, and a count that is not one.
          'gen_ai.usage.prompt_tokens': 11,
          'gen_ai.usage.output_tokens': 'many',
        }),
        undefined,
      ),
    );
    expect(call.summary?.usage?.['gpt-4o']).toMatchObject({ inputTokens: 10, outputTokens: 0 });
    expect(call.attributes).not.toHaveProperty(['gen_ai.usage.input_tokens']);
    expect(call.attributes).toMatchObject({
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.usage.prompt_tokens': 11,
      'gen_ai.usage.output_tokens': 'many',
    });
  });

  it('reads the older gen_ai.prompt.N / gen_ai.completion.N attributes (OpenLLMetry)', () => {
    const { call } = mapped(
      spanToCall(
        span({
          'gen_ai.request.model': 'claude-sonnet-4-5',
          'gen_ai.prompt.0.role': 'system',
          'gen_ai.prompt.0.content': 'Be brief',
          'gen_ai.prompt.1.role': 'user',
          'gen_ai.prompt.1.content': 'Weather?',
          'gen_ai.completion.0.role': 'assistant',
          'gen_ai.completion.0.finish_reason': 'tool_calls',
          'gen_ai.completion.0.tool_calls.0.name': 'weather',
          'gen_ai.completion.0.tool_calls.0.arguments': '{"city":"Oslo"}',
          'gen_ai.usage.prompt_tokens': 30,
          'gen_ai.usage.completion_tokens': 5,
          'gen_ai.usage.cache_creation_input_tokens': 10,
        }),
        undefined,
      ),
    );
    expect(call.inputs).toEqual({
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'Weather?' },
      ],
    });
    expect(call.output).toEqual({
      role: 'assistant',
      finish_reason: 'tool_calls',
      tool_calls: [{ name: 'weather', arguments: '{"city":"Oslo"}' }],
    });
    expect(call.summary?.usage?.['claude-sonnet-4-5']).toMatchObject({
      inputTokens: 30,
      outputTokens: 5,
      cacheWriteTokens: 10,
    });
    expect(call.summary?.costUsd).toBeGreaterThan(0);
  });

  it('reads the older per-message events and gen_ai.choice', () => {
    const { call } = mapped(
      spanToCall(
        span(
          { 'gen_ai.request.model': 'gpt-4o-mini' },
          {
            events: [
              event('gen_ai.system.message', { 'gen_ai.system': 'openai', content: 'Be brief' }),
              event('gen_ai.user.message', { content: 'Hi' }),
              event('gen_ai.choice', { index: 0, finish_reason: 'stop', message: '{"content":"Hello"}' }),
              event('log', { note: 'kept' }),
            ],
          },
        ),
        undefined,
      ),
    );
    expect(call.inputs).toEqual({
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(call.output).toEqual({ index: 0, finish_reason: 'stop', message: { content: 'Hello' } });
    expect(call.attributes?.['otel.events']).toEqual([
      { name: 'log', timeMs: 0, attributes: { note: 'kept' } },
    ]);
  });

  it('reads OpenInference: llm.input_messages, llm.output_messages, llm.token_count, session.id', () => {
    const { call, sessionId } = mapped(
      spanToCall(
        span({
          'openinference.span.kind': 'LLM',
          'llm.model_name': 'gpt-4o-mini',
          'input.value': '{"messages":[{"role":"user","content":"Hi"}]}',
          'input.mime_type': 'application/json',
          'llm.input_messages.0.message.role': 'user',
          'llm.input_messages.0.message.content': 'Hi',
          'llm.output_messages.0.message.role': 'assistant',
          'llm.output_messages.0.message.content': 'Hello',
          'llm.token_count.prompt': 12,
          'llm.token_count.completion': 3,
          'llm.token_count.total': 15,
          'llm.token_count.prompt_details.cache_read': 2,
          'session.id': 's-9',
        }),
        undefined,
      ),
    );
    expect(call.inputs).toEqual({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(call.output).toEqual({ role: 'assistant', content: 'Hello' });
    expect(call.summary?.usage?.['gpt-4o-mini']).toMatchObject({
      inputTokens: 12,
      outputTokens: 3,
      totalTokens: 15,
    });
    expect(sessionId).toBe('s-9');
    expect(call.sessionId).toBe('s-9');
  });

  it('reads OpenInference input.value / output.value on a chain span', () => {
    const { call } = mapped(
      spanToCall(
        span({ 'openinference.span.kind': 'CHAIN', 'input.value': '{"q":"x"}', 'output.value': 'answer' }),
        undefined,
      ),
    );
    expect(call.inputs).toEqual({ q: 'x' });
    expect(call.output).toBe('answer');
    expect(call.summary?.usage).toBeUndefined();
  });

  it("reads the AI SDK's ai.* attributes: prompt, response text and tool calls, usage, model", () => {
    const { call } = mapped(
      spanToCall(
        span({
          'ai.operationId': 'ai.generateText',
          'ai.model.id': 'gpt-4o',
          'ai.prompt': '{"system":"Be brief","prompt":"Hi"}',
          'ai.response.text': 'Hello',
          'ai.response.toolCalls': '[{"toolName":"weather","args":{"city":"Oslo"}}]',
          'ai.usage.promptTokens': 10,
          'ai.usage.completionTokens': 2,
          'ai.telemetry.metadata.sessionId': 'chat-7',
        }),
        undefined,
      ),
    );
    expect(call.inputs).toEqual({ system: 'Be brief', prompt: 'Hi' });
    expect(call.output).toEqual({
      text: 'Hello',
      toolCalls: [{ toolName: 'weather', args: { city: 'Oslo' } }],
    });
    expect(call.summary?.usage?.['gpt-4o']).toMatchObject({
      inputTokens: 10,
      outputTokens: 2,
      totalTokens: 12,
    });
    expect(call.attributes).toMatchObject({ 'weft.session.id': 'chat-7' });
  });

  it("reads the AI SDK's embedding usage (ai.usage.tokens on ai.embed / ai.embedMany) as priced input tokens", () => {
    const { call } = mapped(
      spanToCall(
        span({
          'ai.operationId': 'ai.embedMany',
          'ai.model.id': 'text-embedding-3-small',
          'ai.usage.tokens': 1_000,
        }),
        undefined,
      ),
    );
    expect(call.summary?.usage?.['text-embedding-3-small']).toMatchObject({
      inputTokens: 1_000,
      outputTokens: 0,
      totalTokens: 1_000,
    });
    expect(call.summary?.costUsd).toBeGreaterThan(0);
  });

  it('reads ai.prompt.messages on a doGenerate span and ai.toolCall.* on a tool span', () => {
    const step = mapped(
      spanToCall(
        span({
          'ai.prompt.messages': '[{"role":"user","content":[{"type":"text","text":"Hi"}]}]',
          'ai.response.text': 'Yo',
        }),
        undefined,
      ),
    ).call;
    expect(step.inputs).toEqual({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
    expect(step.output).toBe('Yo');
    const tool = mapped(
      spanToCall(
        span({
          'ai.toolCall.name': 'weather',
          'ai.toolCall.args': '{"city":"Oslo"}',
          'ai.toolCall.result': '"sunny"',
        }),
        undefined,
      ),
    ).call;
    expect(tool.inputs).toEqual({ city: 'Oslo' });
    // JSON text (the AI SDK's JSON.stringify of what the tool returned), not a string holding quotes.
    expect(tool.output).toBe('sunny');
  });

  it('parses the AI SDK attributes that are always JSON text whatever JSON they hold, and keeps text that is not JSON', () => {
    const output = (result: string) =>
      mapped(spanToCall(span({ 'ai.toolCall.name': 't', 'ai.toolCall.result': result }), undefined)).call
        .output;
    expect(output('42')).toBe(42);
    expect(output('null')).toBeNull();
    expect(output('[1,"a"]')).toEqual([1, 'a']);
    expect(output('"line\\nbreak"')).toBe('line\nbreak');
    expect(output('plain words')).toBe('plain words');
    const object = mapped(spanToCall(span({ 'ai.response.object': '"Ada"' }), undefined)).call.output;
    expect(object).toBe('Ada');
    // Other conventions' strings stay as sent: only JSON objects and arrays are parsed there.
    expect(mapped(spanToCall(span({ 'output.value': '42' }), undefined)).call.output).toBe('42');
  });

  it("takes a stream's time to first chunk from the AI SDK's doStream spans as summary.timeToFirstTokenMs", () => {
    const ttft = (attributes: Record<string, string | number>) =>
      mapped(spanToCall(span(attributes), undefined)).call.summary?.timeToFirstTokenMs;
    expect(ttft({ 'ai.response.msToFirstChunk': 123.5 })).toBe(123.5);
    expect(ttft({ 'ai.stream.msToFirstChunk': 80 })).toBe(80);
    expect(ttft({ 'ai.response.msToFirstChunk': '42' })).toBe(42);
    expect(ttft({})).toBeUndefined();
    expect(ttft({ 'ai.response.msToFirstChunk': -1 })).toBeUndefined();
  });

  it('turns status ERROR and the exception event into an error call', () => {
    const { call } = mapped(
      spanToCall(
        span(
          {},
          {
            status: { code: 2, message: 'boom' },
            events: [
              event('exception', {
                'exception.type': 'RateLimitError',
                'exception.message': '429 Too Many Requests',
                'exception.stacktrace': 'RateLimitError: 429\n    at call (app.js:1:1)',
              }),
            ],
          },
        ),
        undefined,
      ),
    );
    expect(call.exception).toEqual({
      name: 'RateLimitError',
      message: '429 Too Many Requests',
      stack: 'RateLimitError: 429\n    at call (app.js:1:1)',
    });
    expect(call.summary?.status).toBe('error');
    expect(
      mapped(spanToCall(span({}, { status: { code: 2, message: 'no event' } }), undefined)).call.exception,
    ).toEqual({
      name: 'Error',
      message: 'no event',
    });
  });

  it('gives an unpriced model no cost, never 0, and honours price overrides', () => {
    const attrs = {
      'gen_ai.request.model': 'my-local-llm',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 10,
    };
    const plain = mapped(spanToCall(span(attrs), undefined)).call;
    expect(plain.summary?.usage?.['my-local-llm']).not.toHaveProperty('costUsd');
    expect(plain.summary).not.toHaveProperty('costUsd');
    const priced = mapped(
      spanToCall(span(attrs), undefined, { prices: { 'my-local-llm': { input: 1, output: 2 } } }),
    ).call;
    expect(priced.summary?.costUsd).toBe(0.00003);
  });

  it('keeps attribute values that have no Weft field (arrays, maps, a __proto__ key) as plain data', () => {
    const { call } = mapped(
      spanToCall(span({ tags: ['a', 1, true], map: { nested: { deep: 1 } }, ['__proto__']: 'x' }), undefined),
    );
    expect(call.attributes?.tags).toEqual(['a', 1, true]);
    expect(call.attributes?.map).toEqual({ nested: { deep: 1 } });
    expect(Object.getPrototypeOf(call.attributes)).toBe(Object.prototype);
    expect(Object.hasOwn(call.attributes ?? {}, '__proto__')).toBe(true);
  });

  it('keeps links as Weft ids in otel.links, dropping a link whose ids are invalid', () => {
    const { call } = mapped(
      spanToCall(
        span(
          {},
          {
            links: [
              { traceId: TRACE, spanId: PARENT, attributes: { 'messaging.operation': 'receive' } },
              { traceId: '0'.repeat(32), spanId: PARENT, attributes: {} },
              { traceId: 'ffeeddccbbaa99887766554433221100', spanId: 'aaaabbbbccccdddd', attributes: {} },
            ],
          },
        ),
        undefined,
      ),
    );
    expect(call.attributes?.['otel.links']).toEqual([
      {
        traceId: '0195f3a2-7c1d-7a00-8f3e-1b2c3d4e5f60',
        callId: '0195f3a2-7c1d-7a00-1111-222233334444',
        attributes: { 'messaging.operation': 'receive' },
      },
      { traceId: 'ffeeddcc-bbaa-9988-7766-554433221100', callId: 'ffeeddcc-bbaa-9988-aaaa-bbbbccccdddd' },
    ]);
    expect(mapped(spanToCall(span({}), undefined)).call.attributes).not.toHaveProperty('otel.links');
  });

  it("marks the AI SDK's outer spans' usage as totalling their steps, every other span's as its own", () => {
    const usage = { 'ai.model.id': 'gpt-4o', 'ai.usage.inputTokens': 70, 'ai.usage.outputTokens': 9 };
    const scope = (attributes: OtelAttributes, name = 'x') =>
      mapped(spanToCall(span(attributes, { name }), undefined)).usageScope;
    expect(scope({ 'ai.operationId': 'ai.generateText', ...usage })).toBe('steps');
    expect(scope(usage, 'ai.streamObject')).toBe('steps');
    expect(scope({ 'ai.operationId': 'ai.generateText.doGenerate', ...usage })).toBe('self');
    // Without usage of its own an outer span adds its children like any other.
    expect(scope({ 'ai.operationId': 'ai.generateText' })).toBe('self');
    expect(scope({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.usage.input_tokens': 5 })).toBe('self');
  });
});
