import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { wrapOpenAI } from '@weft/sdk/openai';
import {
  type FakeCompletion,
  type FakeReply,
  openaiError,
  rateLimited,
} from '../fixtures/fake-provider/index.js';
import { drain, outcome, setup } from './setup.js';

const messages = [{ role: 'user' as const, content: 'What is the weather in Paris?' }];

/** The same client twice: one left alone, one wrapped (a separate instance, so the plain one stays untraced). */
function clients(url: string) {
  const options = { apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 };
  return { plain: new OpenAI(options), wrapped: wrapOpenAI(new OpenAI(options)) };
}

const completion: FakeCompletion = {
  text: 'It is sunny.',
  toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' }],
  usage: { inputTokens: 1_000, outputTokens: 200, cachedInputTokens: 400, reasoningTokens: 50 },
};
const reply: FakeReply = { kind: 'completion', completion };

/** gpt-4o: $2.50 / 1M input, $1.25 cached, $10 output. */
const gpt4oCost = (600 * 2.5 + 400 * 1.25 + 200 * 10) / 1e6;

describe('wrapOpenAI: chat.completions.create', () => {
  it('records the request, the reply, usage with cached and reasoning tokens and cost, nested under the caller; the caller gets what an unwrapped client returns', async () => {
    const { provider, calls } = await setup('openai-chat');
    const { plain, wrapped } = clients(provider.url);
    provider.enqueue(reply, reply);
    const expected = await plain.chat.completions.create({ model: 'gpt-4o', messages });
    const agent = weft.op(async function agent() {
      return wrapped.chat.completions.create({ model: 'gpt-4o', messages, temperature: 0.2 });
    });
    const got = await agent();
    expect(got).toStrictEqual(expected);
    const [root, call] = await calls();
    expect(call?.opName).toBe('openai.chat.completions.create');
    expect(call?.parentId).toBe(root?.id);
    expect(call?.inputs).toEqual({ model: 'gpt-4o', messages, temperature: 0.2 });
    expect(call?.output).toMatchObject({
      choices: [
        { message: { content: 'It is sunny.', tool_calls: [{ id: 'call_1' }] }, finish_reason: 'tool_calls' },
      ],
    });
    const usage = {
      requests: 1,
      inputTokens: 1_000,
      outputTokens: 200,
      totalTokens: 1_200,
      cachedInputTokens: 400,
      reasoningTokens: 50,
    };
    expect(call?.summary?.usage).toEqual({ 'gpt-4o': { ...usage, costUsd: gpt4oCost } });
    expect(call?.summary?.costUsd).toBe(gpt4oCost);
    expect(call?.summary?.timeToFirstTokenMs).toBeUndefined();
    // Rolled up into the caller.
    expect(root?.summary?.usage?.['gpt-4o']).toEqual({ ...usage, costUsd: gpt4oCost });
    expect(root?.summary?.costUsd).toBe(gpt4oCost);
  });

  it('streams: asks for usage without the caller seeing it, records the assembled message, tool calls, finish reason, usage and time to first token', async () => {
    const { provider, calls } = await setup('openai-chat-stream');
    const { plain, wrapped } = clients(provider.url);
    provider.enqueue(reply, reply);
    const request = { model: 'gpt-4o', messages, stream: true as const };
    const sent = structuredClone(request);
    const expected = await drain(await plain.chat.completions.create(request));
    const got = await drain(await wrapped.chat.completions.create(request));
    expect(got.chunks).toStrictEqual(expected.chunks);
    expect(got.chunks.length).toBeGreaterThan(5);
    expect(request).toStrictEqual(sent); // The caller's request object is not changed…
    expect(
      (provider.requests[0]?.body as { stream_options?: unknown } | undefined)?.stream_options,
    ).toBeUndefined();
    expect((provider.requests[1]?.body as { stream_options?: unknown } | undefined)?.stream_options).toEqual({
      include_usage: true,
    }); // …a copy asks for usage.
    const [call] = await calls();
    expect(call?.inputs).toEqual(request);
    expect(call?.output).toEqual({
      id: 'chatcmpl-fake0001',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'It is sunny.',
            refusal: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: expect.objectContaining({ prompt_tokens: 1_000 }),
    });
    expect(call?.summary?.usage?.['gpt-4o']).toMatchObject({
      inputTokens: 1_000,
      outputTokens: 200,
      cachedInputTokens: 400,
      reasoningTokens: 50,
      costUsd: gpt4oCost,
    });
    expect(call?.summary?.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    expect(call?.summary?.timeToFirstTokenMs).toBeLessThanOrEqual(call?.summary?.latencyMs ?? -1);
  });

  it('streams: a caller who asked for usage (or refused it) gets exactly that, usage chunk included', async () => {
    const { provider, calls } = await setup('openai-chat-stream-usage');
    const { plain, wrapped } = clients(provider.url);
    for (const include_usage of [true, false]) {
      provider.enqueue(reply, reply);
      const request = { model: 'gpt-4o', messages, stream: true as const, stream_options: { include_usage } };
      const expected = await drain(await plain.chat.completions.create(request));
      const got = await drain(await wrapped.chat.completions.create(request));
      expect(got.chunks).toStrictEqual(expected.chunks);
    }
    const [withUsage, without] = await calls();
    expect(withUsage?.summary?.usage?.['gpt-4o']?.inputTokens).toBe(1_000);
    expect(without?.summary?.usage).toBeUndefined();
    expect(without?.output).toMatchObject({ choices: [{ message: { content: 'It is sunny.' } }] });
  });

  it('a refusal is assembled from its deltas', async () => {
    const { provider, calls } = await setup('openai-refusal');
    const { wrapped } = clients(provider.url);
    provider.enqueue({
      kind: 'completion',
      completion: { refusal: 'I cannot help with that.', finishReason: 'stop' },
    });
    await drain(await wrapped.chat.completions.create({ model: 'gpt-4o', messages, stream: true }));
    const [call] = await calls();
    expect(call?.output).toMatchObject({
      choices: [{ message: { content: null, refusal: 'I cannot help with that.' }, finish_reason: 'stop' }],
    });
  });

  it('a stream read through tee() or toReadableStream() is traced like one read with for await', async () => {
    const { provider, calls } = await setup('openai-tee');
    const { wrapped } = clients(provider.url);
    const request = {
      model: 'gpt-4o',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    } as const;
    provider.enqueue(reply, reply);
    const [left, right] = (await wrapped.chat.completions.create(request)).tee();
    const [leftChunks, rightChunks] = await Promise.all([drain(left), drain(right)]);
    expect(leftChunks.chunks).toEqual(rightChunks.chunks);
    const readable = (await wrapped.chat.completions.create(request)).toReadableStream();
    const reader = readable.getReader();
    let bytes = 0;
    for (let step = await reader.read(); !step.done; step = await reader.read()) bytes += step.value.length;
    expect(bytes).toBeGreaterThan(0);
    const recorded = await calls();
    expect(recorded).toHaveLength(2);
    for (const call of recorded) {
      expect(call.summary?.status).toBe('success');
      expect(call.output).toMatchObject({ choices: [{ message: { content: 'It is sunny.' } }] });
      expect(call.summary?.usage?.['gpt-4o']?.inputTokens).toBe(1_000);
    }
  });

  it('keeps .withResponse(), .asResponse(), the stream object, parse() and the stream() helper working; the client is the same object', async () => {
    const { provider, calls } = await setup('openai-helpers');
    const { plain, wrapped } = clients(provider.url);
    const plainCompletions = plain.chat.completions;
    expect(wrapped.chat.completions).toBeInstanceOf(plainCompletions.constructor as new () => unknown);
    const { data, response, request_id } = await wrapped.chat.completions
      .create({ model: 'gpt-4o', messages })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe('Hello from the fake provider.');
    expect(response.status).toBe(200);
    expect(request_id).toBe('req_fake');
    const raw = await wrapped.chat.completions.create({ model: 'gpt-4o', messages }).asResponse();
    expect(((await raw.json()) as { object: string }).object).toBe('chat.completion');
    const stream = await wrapped.chat.completions.create({ model: 'gpt-4o', messages, stream: true });
    expect(stream.controller).toBeInstanceOf(AbortController);
    await drain(stream);
    const parsed = await wrapped.chat.completions.parse({ model: 'gpt-4o', messages });
    expect(parsed.choices[0]?.message.parsed).toBeNull();
    const final = await wrapped.chat.completions.stream({ model: 'gpt-4o', messages }).finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Hello from the fake provider.');
    const recorded = await calls();
    // One call per request: parse() and stream() go through create.
    expect(recorded.map((c) => c.opName)).toEqual(Array(5).fill('openai.chat.completions.create'));
    expect(recorded.every((c) => c.summary?.status === 'success')).toBe(true);
    expect(recorded[1]?.output ?? undefined).toBeUndefined(); // .asResponse(): the caller read the body.
    expect(recorded[4]?.summary?.usage?.['gpt-4o']?.inputTokens).toBe(12);
  });

  it('wrapping twice traces once', async () => {
    const { provider, calls } = await setup('openai-twice');
    const client = new OpenAI({ apiKey: 'test', baseURL: `${provider.url}/v1`, maxRetries: 0 });
    expect(wrapOpenAI(wrapOpenAI(client))).toBe(client);
    await client.chat.completions.create({ model: 'gpt-4o', messages });
    expect(await calls()).toHaveLength(1);
  });
});

/** Streams one request through each client; the wrapped one must give the same chunks and the same error. Returns that error. */
async function sameFailingStream(plain: OpenAI, wrapped: OpenAI): Promise<Error> {
  const expected = await drain(
    await plain.chat.completions.create({ model: 'gpt-4o', messages, stream: true }),
  );
  const got = await drain(await wrapped.chat.completions.create({ model: 'gpt-4o', messages, stream: true }));
  expect(got.chunks).toStrictEqual(expected.chunks);
  expect(got.error).toBeInstanceOf((expected.error as object).constructor as new () => unknown);
  expect((got.error as Error).message).toBe((expected.error as Error).message);
  return expected.error as Error;
}

describe('wrapOpenAI: errors', () => {
  const apiError = (status: number, type: string) =>
    openaiError(status, { message: `failed with ${status}`, type });
  it.each([
    [
      '400',
      openaiError(400, {
        message: 'Invalid value for temperature',
        type: 'invalid_request_error',
        param: 'temperature',
      }),
      400,
      'invalid_request_error',
      'BadRequestError',
    ],
    ['401', apiError(401, 'invalid_api_key'), 401, 'invalid_api_key', 'AuthenticationError'],
    ['403', apiError(403, 'permission_denied'), 403, 'permission_denied', 'PermissionDeniedError'],
    ['404', apiError(404, 'not_found'), 404, 'not_found', 'NotFoundError'],
    ['409', apiError(409, 'conflict'), 409, 'conflict', 'ConflictError'],
    ['422', apiError(422, 'unprocessable'), 422, 'unprocessable', 'UnprocessableEntityError'],
    ['429 with retry-after', rateLimited('openai', 2), 429, 'requests', 'RateLimitError'],
    [
      '500',
      openaiError(500, { message: 'The server had an error', type: 'server_error' }),
      500,
      'server_error',
      'InternalServerError',
    ],
  ])(
    '%s: thrown unchanged and recorded with the class name the caller would instanceof, status, type and message',
    async (_label, error, status, type, className) => {
      const { provider, calls } = await setup('openai-errors');
      const { plain, wrapped } = clients(provider.url);
      provider.enqueue(error, error);
      const expected = await outcome(plain.chat.completions.create({ model: 'gpt-4o', messages }));
      const got = await outcome(wrapped.chat.completions.create({ model: 'gpt-4o', messages }));
      expect(got.error).toBeInstanceOf((expected.error as object).constructor as new () => unknown);
      expect((got.error as object).constructor.name).toBe(className);
      expect(got.error).toMatchObject({ status, type, message: (expected.error as Error).message });
      const [call] = await calls();
      expect(call?.summary?.status).toBe('error');
      expect(call?.exception).toMatchObject({
        name: className,
        statusCode: status,
        type,
        message: (expected.error as Error).message,
      });
    },
  );

  it('a stream cut off mid-way: the client error reaches the caller unchanged; the call records it and what was read', async () => {
    const { provider, calls } = await setup('openai-cut');
    const { plain, wrapped } = clients(provider.url);
    const cut: FakeReply = {
      kind: 'completion',
      completion: { text: 'one two three four five six' },
      cutAfterEvents: 3,
    };
    provider.enqueue(cut, cut);
    await sameFailingStream(plain, wrapped);
    const [call] = await calls();
    expect(call?.summary?.status).toBe('error');
    expect(call?.output).toMatchObject({ choices: [{ message: { content: 'one two three fo' } }] });
  });

  it('malformed SSE: the client error reaches the caller unchanged and is recorded', async () => {
    const { provider, calls } = await setup('openai-malformed');
    const { plain, wrapped } = clients(provider.url);
    const bad: FakeReply = {
      kind: 'raw',
      contentType: 'text/event-stream',
      body: 'data: {"id":"x","choices":[{"index":0,"delta":{"content":"a"}}]}\n\ndata: {not json\n\n',
    };
    provider.enqueue(bad, bad);
    const expected = await sameFailingStream(plain, wrapped);
    const [call] = await calls();
    expect(call?.summary?.status).toBe('error');
    expect(call?.exception?.message).toBe(expected.message);
  });

  it('a malformed JSON reply ends the call with the parse error, through create() and through parse()', async () => {
    const { provider, calls } = await setup('openai-malformed-json');
    const { plain, wrapped } = clients(provider.url);
    const bad: FakeReply = {
      kind: 'raw',
      contentType: 'application/json',
      body: '{"object":"chat.completion","choices":[',
    };
    provider.enqueue(bad, bad, bad, bad);
    const viaCreate = await outcome(wrapped.chat.completions.create({ model: 'gpt-4o', messages }));
    const plainCreate = await outcome(plain.chat.completions.create({ model: 'gpt-4o', messages }));
    const viaParse = await outcome(wrapped.chat.completions.parse({ model: 'gpt-4o', messages }));
    const plainParse = await outcome(plain.chat.completions.parse({ model: 'gpt-4o', messages }));
    expect((viaCreate.error as Error).message).toBe((plainCreate.error as Error).message);
    expect((viaParse.error as Error).message).toBe((plainParse.error as Error).message);
    const recorded = await calls();
    expect(recorded).toHaveLength(2);
    for (const call of recorded) {
      expect(call.summary?.status).toBe('error');
      expect(call.exception?.message).toBe((plainParse.error as Error).message);
    }
  });

  it('a huge, deeply nested reply body is recorded within the value limits', async () => {
    const { provider, calls } = await setup('openai-hostile');
    const { wrapped } = clients(provider.url);
    // Built as text: JSON.stringify itself would overflow the stack on this depth.
    const depth = 100_000;
    const deep = `${'{"d":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`;
    const head =
      '{"object":"chat.completion","model":"gpt-4o","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}';
    const body = `${head},"big":"${'x'.repeat(500_000)}","deep":${deep}}`;
    provider.enqueue({ kind: 'raw', contentType: 'application/json', body });
    const got = await wrapped.chat.completions.create({ model: 'gpt-4o', messages });
    expect((got as unknown as { big: string }).big).toHaveLength(500_000);
    const [call] = await calls();
    expect(call?.summary?.status).toBe('success');
    // Past the depth limit the value is cut with a visible marker.
    expect(JSON.stringify(call?.output)).not.toContain('bottom');
  });

  it('wrapping something that is not a client: a typed error naming what was expected', () => {
    for (const bad of [undefined, null, 42, {}, { chat: {} }, new Map()]) {
      expect(() => wrapOpenAI(bad as object)).toThrow(
        expect.objectContaining({
          code: 'WEFT_INVALID_CLIENT',
          expected: expect.stringContaining('OpenAI client'),
        }),
      );
    }
    const client = new OpenAI({ apiKey: 'test' });
    expect(() => wrapOpenAI(client, { attributes: 'x' } as never)).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_OPTIONS', option: 'attributes' }),
    );
  });
});

describe('wrapOpenAI: responses and embeddings', () => {
  it('responses.create: the reply, usage with cached and reasoning tokens, cost', async () => {
    const { provider, calls } = await setup('openai-responses');
    const { plain, wrapped } = clients(provider.url);
    provider.enqueue(reply, reply);
    const expected = await plain.responses.create({ model: 'gpt-4o', input: 'weather?' });
    const got = await wrapped.responses.create({ model: 'gpt-4o', input: 'weather?' });
    expect(got).toStrictEqual(expected);
    expect(got.output_text).toBe('It is sunny.');
    const [call] = await calls();
    expect(call?.opName).toBe('openai.responses.create');
    expect(call?.inputs).toEqual({ model: 'gpt-4o', input: 'weather?' });
    expect(call?.summary?.usage?.['gpt-4o']).toMatchObject({
      inputTokens: 1_000,
      outputTokens: 200,
      cachedInputTokens: 400,
      reasoningTokens: 50,
      costUsd: gpt4oCost,
    });
  });

  it('responses.create streamed and responses.stream(): events unchanged, the final response recorded, time to first token', async () => {
    const { provider, calls } = await setup('openai-responses-stream');
    const { plain, wrapped } = clients(provider.url);
    provider.enqueue(reply, reply);
    const expected = await drain(
      await plain.responses.create({ model: 'gpt-4o', input: 'weather?', stream: true }),
    );
    const got = await drain(
      await wrapped.responses.create({ model: 'gpt-4o', input: 'weather?', stream: true }),
    );
    expect(got.chunks).toStrictEqual(expected.chunks);
    const final = await wrapped.responses.stream({ model: 'gpt-4o', input: 'again' }).finalResponse();
    expect(final.output_text).toBe('Hello from the fake provider.');
    const [call, helper] = await calls();
    expect(call?.output).toMatchObject({
      status: 'completed',
      output: [
        { type: 'message', content: [{ text: 'It is sunny.' }] },
        { type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' },
      ],
    });
    expect(call?.summary?.usage?.['gpt-4o']).toMatchObject({
      inputTokens: 1_000,
      cachedInputTokens: 400,
      reasoningTokens: 50,
    });
    expect(call?.summary?.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    expect(helper?.opName).toBe('openai.responses.create');
    expect(helper?.summary?.usage?.['gpt-4o']?.inputTokens).toBe(12);
  });

  it('embeddings.create: the vectors the caller gets are unchanged; the record keeps their size, usage and cost', async () => {
    const { provider, calls } = await setup('openai-embeddings');
    const { plain, wrapped } = clients(provider.url);
    const request = { model: 'text-embedding-3-small', input: ['a cat', 'a dog'] };
    const expected = await plain.embeddings.create(request);
    const got = await wrapped.embeddings.create(request);
    expect(got).toStrictEqual(expected);
    const [call] = await calls();
    expect(call?.opName).toBe('openai.embeddings.create');
    expect(call?.output).toMatchObject({
      data: [
        { index: 0, dimensions: 4 },
        { index: 1, dimensions: 4 },
      ],
    });
    expect(call?.summary?.usage?.['text-embedding-3-small']).toMatchObject({
      inputTokens: 12,
      outputTokens: 0,
    });
    expect(call?.summary?.costUsd).toBeGreaterThan(0);
  });
});
