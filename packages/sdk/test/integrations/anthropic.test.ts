import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { wrapAnthropic } from '@weft/sdk/anthropic';
import { anthropicError, type FakeReply, rateLimited } from '../fixtures/fake-provider/index.js';
import { drain, outcome, setup } from './setup.js';

const model = 'claude-haiku-4-5';
const request = {
  model,
  max_tokens: 256,
  messages: [{ role: 'user' as const, content: 'What is the weather in Paris?' }],
};

function clients(url: string) {
  const options = { apiKey: 'test', baseURL: url, maxRetries: 0 };
  return { plain: new Anthropic(options), wrapped: wrapAnthropic(new Anthropic(options)) };
}

const reply: FakeReply = {
  kind: 'completion',
  completion: {
    text: 'Let me check.',
    toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris","days":[1,2]}' }],
    usage: { inputTokens: 100, outputTokens: 40, cachedInputTokens: 2_000, cacheWriteTokens: 300 },
  },
};
/** Input counts cache reads and writes: 100 + 2,000 + 300. */
const usage = {
  requests: 1,
  inputTokens: 2_400,
  outputTokens: 40,
  totalTokens: 2_440,
  cachedInputTokens: 2_000,
  cacheWriteTokens: 300,
};
/** claude-haiku-4-5: $1 / 1M input, $0.10 cached read, $1.25 cache write, $5 output. */
const cost = (100 * 1 + 2_000 * 0.1 + 300 * 1.25 + 40 * 5) / 1e6;

describe('wrapAnthropic', () => {
  it('messages.create: the reply unchanged; model, usage with cache reads and writes, cost, nested and rolled up', async () => {
    const { provider, calls } = await setup('anthropic-create');
    const { plain, wrapped } = clients(provider.url);
    provider.enqueue(reply, reply);
    const expected = await plain.messages.create(request);
    const agent = weft.op(async function agent() {
      return wrapped.messages.create(request);
    });
    expect(await agent()).toStrictEqual(expected);
    const [root, call] = await calls();
    expect(call?.opName).toBe('anthropic.messages.create');
    expect(call?.parentId).toBe(root?.id);
    expect(call?.inputs).toEqual(request);
    expect(call?.output).toMatchObject({
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', input: { city: 'Paris', days: [1, 2] } },
      ],
    });
    expect(call?.summary?.usage).toEqual({ [model]: { ...usage, costUsd: cost } });
    expect(call?.summary?.costUsd).toBe(cost);
    expect(root?.summary?.costUsd).toBe(cost);
  });

  it('messages.create streamed: events unchanged; the model and input tokens from message_start, output tokens from message_delta, text and tool input assembled, time to first token', async () => {
    const { provider, calls } = await setup('anthropic-stream');
    const { plain, wrapped } = clients(provider.url);
    provider.enqueue(reply, reply);
    const expected = await drain(await plain.messages.create({ ...request, stream: true }));
    const got = await drain(await wrapped.messages.create({ ...request, stream: true }));
    expect(got.chunks).toStrictEqual(expected.chunks);
    const [call] = await calls();
    expect(call?.output).toEqual({
      id: 'msg_fake0001',
      type: 'message',
      role: 'assistant',
      model,
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris', days: [1, 2] } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 100,
        cache_creation_input_tokens: 300,
        cache_read_input_tokens: 2_000,
        output_tokens: 40,
        service_tier: 'standard',
      },
    });
    expect(call?.summary?.usage).toEqual({ [model]: { ...usage, costUsd: cost } });
    expect(call?.summary?.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
  });

  it('messages.stream(): the helper works as unwrapped and is recorded once', async () => {
    const { provider, calls } = await setup('anthropic-helper');
    const { plain, wrapped } = clients(provider.url);
    provider.enqueue(reply, reply);
    const expected = await plain.messages.stream(request).finalMessage();
    const texts: string[] = [];
    const final = await wrapped.messages
      .stream(request)
      .on('text', (text) => texts.push(text))
      .finalMessage();
    expect(final).toStrictEqual(expected);
    expect(texts.join('')).toBe('Let me check.');
    const recorded = await calls();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.summary?.usage?.[model]?.inputTokens).toBe(2_400);
  });

  it('keeps .withResponse() and .asResponse(); wrapping twice traces once', async () => {
    const { provider, calls } = await setup('anthropic-helpers');
    const client = new Anthropic({ apiKey: 'test', baseURL: provider.url, maxRetries: 0 });
    expect(wrapAnthropic(wrapAnthropic(client))).toBe(client);
    const { data, response } = await client.messages.create(request).withResponse();
    expect(data.content[0]).toEqual({ type: 'text', text: 'Hello from the fake provider.' });
    expect(response.headers.get('request-id')).toBe('req_fake');
    const raw = await client.messages.create(request).asResponse();
    expect(((await raw.json()) as { type: string }).type).toBe('message');
    expect(await calls()).toHaveLength(2);
  });

  it.each([
    [
      '400',
      anthropicError(400, 'invalid_request_error', 'max_tokens: field required'),
      400,
      'invalid_request_error',
    ],
    ['429 with retry-after', rateLimited('anthropic', 5), 429, 'rate_limit_error'],
    ['529 overloaded', anthropicError(529, 'overloaded_error', 'Overloaded'), 529, 'overloaded_error'],
  ])(
    '%s: thrown unchanged and recorded with status, type and message',
    async (_label, error, status, type) => {
      const { provider, calls } = await setup('anthropic-errors');
      const { plain, wrapped } = clients(provider.url);
      provider.enqueue(error, error);
      const expected = await outcome(plain.messages.create(request));
      const got = await outcome(wrapped.messages.create(request));
      expect(got.error).toBeInstanceOf((expected.error as object).constructor as new () => unknown);
      expect(got.error).toMatchObject({ status, type, message: (expected.error as Error).message });
      const [call] = await calls();
      expect(call?.exception).toMatchObject({
        statusCode: status,
        type,
        message: (expected.error as Error).message,
      });
    },
  );

  it('an error event in the middle of a stream reaches the caller unchanged; the call records it and the text so far', async () => {
    const { provider, calls } = await setup('anthropic-stream-error');
    const { plain, wrapped } = clients(provider.url);
    const events = [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 9, output_tokens: 1 },
          },
        },
      },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Partial' } },
      },
      { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
    ];
    provider.enqueue({ kind: 'sse', events }, { kind: 'sse', events });
    const expected = await drain(await plain.messages.create({ ...request, stream: true }));
    const got = await drain(await wrapped.messages.create({ ...request, stream: true }));
    expect(got.chunks).toStrictEqual(expected.chunks);
    expect(got.error).toBeInstanceOf((expected.error as object).constructor as new () => unknown);
    expect((got.error as Error).message).toBe((expected.error as Error).message);
    const [call] = await calls();
    expect(call?.summary?.status).toBe('error');
    expect(call?.output).toMatchObject({ model, content: [{ type: 'text', text: 'Partial' }] });
    expect(call?.summary?.usage?.[model]?.inputTokens).toBe(9);
  });

  it('wrapping something that is not a client: a typed error naming what was expected', () => {
    for (const bad of [undefined, 'client', { messages: {} }, new OpenAILookalike()]) {
      expect(() => wrapAnthropic(bad as object)).toThrow(
        expect.objectContaining({
          code: 'WEFT_INVALID_CLIENT',
          expected: expect.stringContaining('Anthropic client'),
        }),
      );
    }
  });
});

class OpenAILookalike {
  chat = { completions: { create() {} } };
}
