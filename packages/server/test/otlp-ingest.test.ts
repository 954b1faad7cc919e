import { type Attributes, SpanStatusCode } from '@opentelemetry/api';
import {
  callIdOfSpan,
  type ModelUsage,
  priceUsage,
  routes,
  totalCostUsd,
  traceIdOfOtel,
} from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from './support/http.js';
import {
  EXPORT_SUCCESS,
  type ExportResult,
  type ExporterKind,
  exportSpans,
  otlpExporter,
  recordingTracer,
  SpanKind,
  startChild,
} from './support/otel.js';
import { startTestServer, type TestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

// The real OpenTelemetry SDK and both real OTLP/HTTP exporters (protobuf and
// JSON) against a real `weft serve` on port 0: nested GenAI spans in each
// convention become calls with the right tree, inputs, output, usage and cost.

interface Convention {
  name: string;
  /** Attributes of the agent (root), LLM (child) and tool (grandchild) spans. */
  root: Attributes;
  llm: Attributes;
  tool: Attributes;
  model: string;
  usage: Omit<ModelUsage, 'costUsd'>;
  llmInputs: unknown;
  llmOutput: unknown;
  toolInputs: unknown;
  toolOutput: unknown;
}

const question = [{ role: 'user', parts: [{ type: 'text', content: 'Weather in Oslo?' }] }];
const answer = [{ role: 'assistant', parts: [{ type: 'text', content: 'Cold.' }], finish_reason: 'stop' }];

const CONVENTIONS: Convention[] = [
  {
    name: 'gen_ai (current)',
    root: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': 'conv-1' },
    llm: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.input.messages': JSON.stringify(question),
      'gen_ai.output.messages': JSON.stringify(answer),
      'gen_ai.usage.input_tokens': 1_000,
      'gen_ai.usage.output_tokens': 200,
      'gen_ai.usage.cache_read.input_tokens': 400,
    },
    tool: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'weather',
      'gen_ai.tool.call.arguments': '{"city":"Oslo"}',
      'gen_ai.tool.call.result': '{"celsius":-3}',
    },
    model: 'gpt-4o',
    usage: { requests: 1, inputTokens: 1_000, outputTokens: 200, totalTokens: 1_200, cachedInputTokens: 400 },
    llmInputs: { messages: question },
    llmOutput: answer[0],
    toolInputs: { city: 'Oslo' },
    toolOutput: { celsius: -3 },
  },
  {
    name: 'gen_ai.prompt.N / gen_ai.completion.N (older, OpenLLMetry)',
    root: { 'traceloop.span.kind': 'workflow' },
    llm: {
      'gen_ai.system': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.prompt.0.role': 'user',
      'gen_ai.prompt.0.content': 'Weather in Oslo?',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.content': 'Cold.',
      'gen_ai.usage.prompt_tokens': 50,
      'gen_ai.usage.completion_tokens': 7,
    },
    tool: { 'traceloop.entity.input': '{"city":"Oslo"}', 'traceloop.entity.output': '{"celsius":-3}' },
    model: 'gpt-4o-mini',
    usage: { requests: 1, inputTokens: 50, outputTokens: 7, totalTokens: 57 },
    llmInputs: { messages: [{ role: 'user', content: 'Weather in Oslo?' }] },
    llmOutput: { role: 'assistant', content: 'Cold.' },
    toolInputs: { city: 'Oslo' },
    toolOutput: { celsius: -3 },
  },
  {
    name: 'OpenInference',
    root: { 'openinference.span.kind': 'AGENT', 'session.id': 'conv-1' },
    llm: {
      'openinference.span.kind': 'LLM',
      'llm.model_name': 'claude-sonnet-4-5',
      'llm.input_messages.0.message.role': 'user',
      'llm.input_messages.0.message.content': 'Weather in Oslo?',
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.content': 'Cold.',
      'llm.token_count.prompt': 300,
      'llm.token_count.completion': 20,
      'llm.token_count.prompt_details.cache_write': 100,
    },
    tool: {
      'openinference.span.kind': 'TOOL',
      'input.value': '{"city":"Oslo"}',
      'output.value': '{"celsius":-3}',
    },
    model: 'claude-sonnet-4-5',
    usage: { requests: 1, inputTokens: 300, outputTokens: 20, totalTokens: 320, cacheWriteTokens: 100 },
    llmInputs: { messages: [{ role: 'user', content: 'Weather in Oslo?' }] },
    llmOutput: { role: 'assistant', content: 'Cold.' },
    toolInputs: { city: 'Oslo' },
    toolOutput: { celsius: -3 },
  },
  {
    name: 'AI SDK ai.*',
    root: {
      'ai.operationId': 'ai.generateText',
      'ai.prompt': '{"prompt":"Weather in Oslo?"}',
      'ai.response.text': 'Cold.',
    },
    llm: {
      'ai.operationId': 'ai.generateText.doGenerate',
      'ai.model.id': 'gpt-4o',
      'ai.prompt.messages': '[{"role":"user","content":[{"type":"text","text":"Weather in Oslo?"}]}]',
      'ai.response.text': 'Cold.',
      'ai.usage.inputTokens': 40,
      'ai.usage.outputTokens': 3,
      'ai.usage.reasoningTokens': 1,
    },
    tool: {
      'ai.toolCall.name': 'weather',
      'ai.toolCall.args': '{"city":"Oslo"}',
      'ai.toolCall.result': '{"celsius":-3}',
    },
    model: 'gpt-4o',
    usage: { requests: 1, inputTokens: 40, outputTokens: 3, totalTokens: 43, reasoningTokens: 1 },
    llmInputs: { messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] }] },
    llmOutput: 'Cold.',
    toolInputs: { city: 'Oslo' },
    toolOutput: { celsius: -3 },
  },
];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server?.close());

async function callsOfTrace(project: string, otelTraceId: string) {
  const reply = await post(server.url, routes.callQuery(), {
    project,
    traceId: traceIdOfOtel(otelTraceId),
    limit: 1_000,
  });
  expect(reply.status).toBe(200);
  return reply.body.calls as {
    id: string;
    parentId: string | null;
    opName: string;
    [key: string]: unknown;
  }[];
}

describe.each(['protobuf', 'json'] as ExporterKind[])('OTLP ingest with the real %s exporter', (kind) => {
  it.each(CONVENTIONS)(
    'maps nested $name spans to a call tree with inputs, output, usage and cost',
    async (convention) => {
      const project = `conv-${kind}-${CONVENTIONS.indexOf(convention)}`;
      const { tracer, spans } = recordingTracer({ 'service.name': 'agent-app', 'weft.project': project });
      const root = startChild(tracer, 'agent', undefined, convention.root);
      const llm = startChild(tracer, 'chat', root, convention.llm, SpanKind.CLIENT);
      const tool = startChild(tracer, 'weather', llm, convention.tool);
      tool.end();
      llm.end();
      root.end();

      const result = await exportSpans(otlpExporter(kind, server.url), spans());
      expect(result.error).toBeUndefined();
      expect(result.code).toBe(EXPORT_SUCCESS);

      const traceId = root.spanContext().traceId;
      const idOf = (span: typeof root) => callIdOfSpan(traceId, span.spanContext().spanId);
      const calls = await callsOfTrace(project, traceId);
      const byId = new Map(calls.map((call) => [call.id, call]));
      expect(calls).toHaveLength(3);
      expect(byId.get(idOf(root))).toMatchObject({ parentId: null, opName: 'agent', status: 'success' });
      expect(byId.get(idOf(llm))).toMatchObject({
        parentId: idOf(root),
        opName: 'chat',
        inputs: convention.llmInputs,
        output: convention.llmOutput,
        attributes: { 'otel.kind': 'client', 'otel.resource': { 'service.name': 'agent-app' } },
      });
      // The resource's weft.project only routed the spans: the calls do not keep it.
      const llmAttributes = byId.get(idOf(llm))?.attributes as Record<string, unknown> | undefined;
      expect(llmAttributes?.['otel.resource']).toEqual({ 'service.name': 'agent-app' });
      expect(byId.get(idOf(tool))).toMatchObject({
        parentId: idOf(llm),
        inputs: convention.toolInputs,
        output: convention.toolOutput,
      });
      const summary = byId.get(idOf(llm))?.summary as { usage: Record<string, ModelUsage>; costUsd?: number };
      const expected = priceUsage({ [convention.model]: { ...convention.usage } });
      expect(summary.usage).toEqual(expected);
      expect(summary.costUsd).toBe(totalCostUsd(expected));
      expect(summary.costUsd).toBeGreaterThan(0);
      // The token counts live in summary.usage only, not a second time in attributes; the model stays.
      const usageKeys = Object.keys(convention.llm).filter((key) => /usage|token_count/.test(key));
      expect(usageKeys.length).toBeGreaterThan(0);
      for (const key of usageKeys) expect(llmAttributes).not.toHaveProperty([key]);
      expect(Object.keys(llmAttributes ?? {}).some((key) => /model/.test(key))).toBe(true);
      // The root (no usage of its own) totals its model call, as the SDK shows an agent op.
      expect(byId.get(idOf(root))?.summary).toMatchObject({
        usage: expected,
        costUsd: totalCostUsd(expected),
      });
      // A conversation / session id on the span makes the call part of that session.
      const sessionOf =
        (convention.root as Record<string, unknown>)['gen_ai.conversation.id'] ??
        (convention.root as Record<string, unknown>)['session.id'];
      expect(byId.get(idOf(root))?.sessionId ?? undefined).toBe(sessionOf);
    },
  );

  it('does not duplicate a re-sent batch, and resolves a parent that arrives after its child', async () => {
    const project = `order-${kind}`;
    const { tracer, spans, reset } = recordingTracer({ 'service.name': project });
    const root = startChild(tracer, 'root', undefined, {});
    const child = startChild(tracer, 'child', root, {
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.usage.input_tokens': 5,
    });
    child.end();
    const childOnly = spans();
    reset();
    root.end();
    const rootOnly = spans();
    const exporter = otlpExporter(kind, server.url);

    // The child first, twice; its parent later in another request, then everything again.
    for (const batch of [childOnly, childOnly, rootOnly, [...childOnly, ...rootOnly]]) {
      expect((await exportSpans(exporter, batch)).code).toBe(EXPORT_SUCCESS);
    }
    const traceId = root.spanContext().traceId;
    const calls = await callsOfTrace(project, traceId);
    expect(calls.map((call) => call.opName).sort()).toEqual(['child', 'root']);
    const childCall = calls.find((call) => call.opName === 'child');
    expect(childCall?.parentId).toBe(callIdOfSpan(traceId, root.spanContext().spanId));
    const roots = await post(server.url, routes.callQuery(), { project, parentId: null });
    expect(roots.body.calls.map((call: { opName: string }) => call.opName)).toEqual(['root']);
  });

  it('maps status ERROR and a recorded exception to an error call', async () => {
    const project = `error-${kind}`;
    const { tracer, spans } = recordingTracer({ 'service.name': project });
    const span = startChild(tracer, 'chat', undefined, { 'gen_ai.request.model': 'gpt-4o' });
    const error = new TypeError('bad tool arguments');
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'bad tool arguments' });
    span.end();
    expect((await exportSpans(otlpExporter(kind, server.url, { gzip: true }), spans())).code).toBe(
      EXPORT_SUCCESS,
    );
    const [call] = await callsOfTrace(project, span.spanContext().traceId);
    expect(call).toMatchObject({
      status: 'error',
      exception: { name: 'TypeError', message: 'bad tool arguments', stack: error.stack },
    });
  });

  it("keeps span links as otel.links with the linked calls' Weft ids", async () => {
    const project = `links-${kind}`;
    const { tracer, spans } = recordingTracer({ 'service.name': project });
    const producer = startChild(tracer, 'produce', undefined, {});
    producer.end();
    const consumer = tracer.startSpan('consume', {
      links: [{ context: producer.spanContext(), attributes: { 'messaging.operation': 'receive' } }],
    });
    consumer.end();
    expect((await exportSpans(otlpExporter(kind, server.url), spans())).code).toBe(EXPORT_SUCCESS);
    const producerIds = producer.spanContext();
    const [call] = await callsOfTrace(project, consumer.spanContext().traceId);
    expect(call?.attributes).toMatchObject({
      'otel.links': [
        {
          traceId: traceIdOfOtel(producerIds.traceId),
          callId: callIdOfSpan(producerIds.traceId, producerIds.spanId),
          attributes: { 'messaging.operation': 'receive' },
        },
      ],
    });
  });

  it('takes the project from x-weft-project over weft.project over service.name', async () => {
    const { tracer, spans } = recordingTracer({ 'service.name': 'svc-name', 'weft.project': `attr-${kind}` });
    const span = startChild(tracer, 'op', undefined, {});
    span.end();
    const exporter = otlpExporter(kind, server.url, { headers: { 'x-weft-project': `header-${kind}` } });
    expect((await exportSpans(exporter, spans())).code).toBe(EXPORT_SUCCESS);
    expect(await callsOfTrace(`header-${kind}`, span.spanContext().traceId)).toHaveLength(1);
    expect(await callsOfTrace(`attr-${kind}`, span.spanContext().traceId)).toHaveLength(0);
  });
});

it('stores the same calls from the same spans whichever exporter sent them (proto3 defaults are absent values)', async () => {
  // A tracer without a version: protobuf sends it as "" (proto3's default), JSON leaves it out.
  const { tracer, spans } = recordingTracer({ 'service.name': 'twin-app' }, null);
  const convention = CONVENTIONS[0] as Convention;
  const root = startChild(tracer, 'agent', undefined, convention.root);
  const llm = startChild(tracer, 'chat', root, convention.llm, SpanKind.CLIENT);
  llm.end();
  root.end();
  const traceId = root.spanContext().traceId;
  const stored: Record<string, unknown>[][] = [];
  for (const kind of ['protobuf', 'json'] as ExporterKind[]) {
    const exporter = otlpExporter(kind, server.url, { headers: { 'x-weft-project': `twin-${kind}` } });
    expect((await exportSpans(exporter, spans())).code).toBe(EXPORT_SUCCESS);
    const calls = await callsOfTrace(`twin-${kind}`, traceId);
    stored.push(calls.map(({ project: _project, ...call }) => call).sort((a, b) => a.id.localeCompare(b.id)));
  }
  expect(stored[0]).toHaveLength(2);
  expect(stored[0]?.[0]?.attributes).toMatchObject({ 'otel.scope': { name: expect.any(String) } });
  expect(JSON.stringify(stored[0])).not.toContain('"version"');
  expect(stored[0]).toEqual(stored[1]);
});

describe('OTLP ingest with per-project tokens', () => {
  const admin = 'admin-otlp-secret-1';
  const tokenA = 'project-a-otlp-secret';
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startTestServer({
      token: admin,
      projectTokens: { [tokenA]: ['projA'] },
      storage: freshTestStorageUrl(),
      register: false,
    });
  });
  afterAll(() => guarded?.close());

  /** The HTTP status the exporter's error carries (`OTLPExporterError.code`). */
  const statusOf = (result: ExportResult) => (result.error as { code?: number } | undefined)?.code;

  async function send(resource: Attributes, headers: Record<string, string>) {
    const { tracer, spans } = recordingTracer(resource);
    startChild(tracer, 'op', undefined, {}).end();
    return exportSpans(otlpExporter('protobuf', guarded.url, { headers }), spans());
  }

  it('accepts a project token for its own project and refuses it for another (403), by header or resource', async () => {
    const bearer = { authorization: `Bearer ${tokenA}` };
    expect((await send({ 'weft.project': 'projA' }, bearer)).code).toBe(EXPORT_SUCCESS);
    expect((await send({ 'service.name': 'x' }, { ...bearer, 'x-weft-project': 'projA' })).code).toBe(
      EXPORT_SUCCESS,
    );
    const other = await send({ 'weft.project': 'projB' }, bearer);
    expect(other.code).not.toBe(EXPORT_SUCCESS);
    expect(statusOf(other)).toBe(403);
    const byHeader = await send({ 'weft.project': 'projA' }, { ...bearer, 'x-weft-project': 'projB' });
    expect(statusOf(byHeader)).toBe(403);
    const anonymous = await send({ 'weft.project': 'projA' }, {});
    expect(statusOf(anonymous)).toBe(401);
    expect((await send({ 'weft.project': 'projB' }, { authorization: `Bearer ${admin}` })).code).toBe(
      EXPORT_SUCCESS,
    );
    const projB = await post(guarded.url, routes.callQuery(), { project: 'projB' }, { token: admin });
    expect(projB.body.calls).toHaveLength(1);
  });
});
