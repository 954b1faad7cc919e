import { routes } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@weft/test-server';
import {
  anthropicError,
  type FakeProvider,
  openaiError,
  rateLimited,
  startFakeProvider,
} from '../../sdk/test/fixtures/fake-provider/index.js';
import { get, post } from './support/http.js';

const OPENAI_KEY = 'sk-server-test-openai-key';
const ANTHROPIC_KEY = 'sk-ant-server-test-key';
const project = 'playground';

let server: TestServer;
let provider: FakeProvider;
beforeAll(async () => {
  provider = await startFakeProvider();
  server = await startTestServer({
    register: false,
    playgroundProviders: [
      {
        id: 'openai',
        kind: 'openai',
        baseUrl: `${provider.url}/v1`,
        apiKey: OPENAI_KEY,
        models: ['gpt-4o-mini'],
      },
      { id: 'claude', kind: 'anthropic', baseUrl: provider.url, apiKey: ANTHROPIC_KEY },
      // Nothing listens on port 1 of the loopback: the connection is refused.
      { id: 'down', kind: 'openai', baseUrl: 'http://127.0.0.1:1/v1', apiKey: OPENAI_KEY },
    ],
  });
});
afterAll(async () => {
  await server.close();
  await provider.close();
});

/** A run's NDJSON answer, line by line, and its raw text (to look for keys in). */
async function run(
  body: Record<string, unknown>,
): Promise<{ status: number; type: string | null; events: Record<string, unknown>[]; text: string }> {
  const response = await fetch(`${server.url}${routes.playgroundRun()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ project, ...body }),
  });
  const text = await response.text();
  const events = response.ok
    ? text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
  return { status: response.status, type: response.headers.get('content-type'), events, text };
}

const messages = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Hi!' },
];

async function storedCall(id: string) {
  return (await get(server.url, routes.call(project, id))).body;
}

describe('playground routes', () => {
  it('lists the providers by id, kind and models, never their keys or addresses', async () => {
    const reply = await get(server.url, routes.playgroundProviders(project));
    expect(reply.status).toBe(200);
    expect(reply.body.providers[0]).toEqual({ id: 'openai', kind: 'openai', models: ['gpt-4o-mini'] });
    expect(reply.body.providers[1]).toMatchObject({ id: 'claude', kind: 'anthropic' });
    expect(reply.body.providers[1].models).toContain('claude-sonnet-4');
    const text = JSON.stringify(reply.body);
    expect(text).not.toContain(OPENAI_KEY);
    expect(text).not.toContain(provider.url);
  });

  it('streams an OpenAI-compatible run as NDJSON and traces it with usage, cost and time to first token', async () => {
    provider.enqueue({
      kind: 'completion',
      completion: {
        text: 'Hello there, friend.',
        chunkChars: 5,
        usage: { inputTokens: 200, outputTokens: 20, cachedInputTokens: 100 },
      },
    });
    const reply = await run({
      provider: 'openai',
      model: 'gpt-4o-mini',
      messages,
      parameters: { temperature: 0.5, maxTokens: 64 },
    });
    expect(reply.type).toContain('application/x-ndjson');
    const texts = reply.events.filter((e) => e.type === 'text').map((e) => e.text);
    expect(texts).toEqual(['Hello', ' ther', 'e, fr', 'iend.']);
    const done = reply.events.at(-1)!;
    expect(done).toMatchObject({
      type: 'done',
      finishReason: 'stop',
      usage: { inputTokens: 200, outputTokens: 20, cachedInputTokens: 100 },
    });
    expect(done.costUsd).toBeGreaterThan(0);
    const sent = provider.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(sent.body).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0.5,
      max_tokens: 64,
      stream: true,
      stream_options: { include_usage: true },
    });
    const call = await storedCall(done.callId as string);
    expect(call).toMatchObject({ opName: 'playground.run', status: 'success', parentId: null });
    expect(call.inputs).toEqual({ model: 'gpt-4o-mini', messages, temperature: 0.5, max_tokens: 64 });
    expect(call.output.choices[0].message.content).toBe('Hello there, friend.');
    expect(call.summary.usage['gpt-4o-mini']).toMatchObject({
      requests: 1,
      inputTokens: 200,
      outputTokens: 20,
      cachedInputTokens: 100,
    });
    expect(call.summary.costUsd).toBe(done.costUsd);
    expect(call.summary.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(call)).not.toContain(OPENAI_KEY);
  });

  it('streams tool calls, and sends an assistant’s tool calls and tool results back in each provider’s shape', async () => {
    provider.enqueue({
      kind: 'completion',
      completion: { toolCalls: [{ id: 'call_9', name: 'lookup', arguments: '{"q":"weft"}' }] },
    });
    const tools = [
      {
        name: 'lookup',
        description: 'Looks up',
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
      },
    ];
    const reply = await run({ provider: 'openai', model: 'gpt-4o', messages, tools });
    const pieces = reply.events.filter((e) => e.type === 'tool-call');
    expect(pieces[0]).toMatchObject({ index: 0, id: 'call_9', name: 'lookup' });
    expect(pieces.map((p) => p.arguments).join('')).toBe('{"q":"weft"}');
    expect((provider.requests.at(-1)!.body as { tools: unknown[] }).tools).toEqual([
      { type: 'function', function: tools[0] },
    ]);

    const history = [
      ...messages,
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_9', name: 'lookup', arguments: '{"q":"weft"}' }],
      },
      { role: 'tool', content: 'the crosswise yarn', toolCallId: 'call_9' },
    ];
    await run({ provider: 'claude', model: 'claude-sonnet-4', messages: history, tools });
    const sent = provider.requests.at(-1)!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(sent.body).toMatchObject({
      model: 'claude-sonnet-4',
      system: 'Be brief.',
      max_tokens: 1024,
      stream: true,
      tools: [{ name: 'lookup', description: 'Looks up', input_schema: tools[0]!.parameters }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi!' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'call_9', name: 'lookup', input: { q: 'weft' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call_9', content: 'the crosswise yarn' }],
        },
      ],
    });
  });

  it('streams an Anthropic run and counts cache reads as input tokens', async () => {
    provider.enqueue({
      kind: 'completion',
      completion: {
        text: 'Short answer.',
        usage: { inputTokens: 50, outputTokens: 5, cachedInputTokens: 30 },
      },
    });
    const reply = await run({ provider: 'claude', model: 'claude-sonnet-4', messages });
    expect(
      reply.events
        .filter((e) => e.type === 'text')
        .map((e) => e.text)
        .join(''),
    ).toBe('Short answer.');
    expect(reply.events.at(-1)).toMatchObject({
      type: 'done',
      usage: { inputTokens: 80, outputTokens: 5, cachedInputTokens: 30 },
    });
    const call = await storedCall(reply.events.at(-1)!.callId as string);
    expect(call.output).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'Short answer.' }],
    });
  });

  it('answers a provider’s 429, 500 or unreachable address with an error event and traces the failure, without the key', async () => {
    for (const [reply, expected] of [
      [rateLimited('openai'), 'openai answered 429: Rate limit reached for requests'],
      [
        openaiError(500, { message: `bad key ${OPENAI_KEY}`, type: 'server_error' }),
        'openai answered 500: bad key [redacted]',
      ],
    ] as const) {
      provider.enqueue(reply);
      const answer = await run({ provider: 'openai', model: 'gpt-4o', messages });
      const error = answer.events.at(-1)!;
      expect(error).toMatchObject({ type: 'error', message: expected });
      expect(answer.text).not.toContain(OPENAI_KEY);
      const call = await storedCall(error.callId as string);
      expect(call.status).toBe('error');
      expect(call.exception).toMatchObject({ name: 'ProviderError', message: expected });
    }
    const down = await run({ provider: 'down', model: 'gpt-4o', messages });
    expect(down.events.at(-1)).toMatchObject({ type: 'error' });
    expect(down.events.at(-1)!.message).toMatch(
      /^Could not reach down \(.*\); check its base URL and that it is running\.$/,
    );
    provider.enqueue(anthropicError(529, 'overloaded_error', 'Overloaded'));
    expect(
      (await run({ provider: 'claude', model: 'claude-sonnet-4', messages })).events.at(-1),
    ).toMatchObject({
      type: 'error',
      statusCode: 529,
      message: 'claude answered 529: Overloaded',
    });
  });

  it('refuses an unknown provider and a bad request with a 400 naming the field', async () => {
    const unknown = await run({ provider: 'nope', model: 'm', messages });
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text).error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'provider' });
    const empty = await run({ provider: 'openai', model: 'm', messages: [] });
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.text).error.path).toBe('messages');
  });

  it('saves a prompt as a new version, digest computed by the server, and moves a label to it', async () => {
    const first = await post(server.url, routes.promptSave(), {
      project,
      name: 'greeting',
      value: { messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(first.body).toMatchObject({ name: 'greeting', version: 1 });
    const second = await post(server.url, routes.promptSave(), {
      project,
      name: 'greeting',
      value: { messages: [{ role: 'user', content: 'Hello' }] },
      label: 'production',
    });
    expect(second.body).toMatchObject({ version: 2, label: 'production' });
    const read = await get(server.url, routes.objectRead(project, 'greeting', 'production'));
    expect(read.body.value).toEqual({ messages: [{ role: 'user', content: 'Hello' }] });
  });
});
