import { type Attributes, ROOT_CONTEXT, type Span, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  addUsage,
  callIdOfSpan,
  type ModelUsage,
  priceUsage,
  routes,
  totalCostUsd,
  traceIdOfOtel,
} from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from './support/http.js';
import { EXPORT_SUCCESS, exportSpans, otlpExporter, recordingTracer, startChild } from './support/otel.js';
import { startTestServer, type TestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

// Usage rolls up the trace of OTLP-ingested calls as the SDK rolls it up its
// own calls: a parent's `summary.usage` and `costUsd` total its own and its
// descendants', whatever order and however many requests the spans come in,
// and a re-sent span never counts twice. Runs on SQLite and (in the
// `server-clickhouse` project) on ClickHouse.

type UsageMap = Record<string, ModelUsage>;
interface StoredCall {
  id: string;
  opName: string;
  parentId: string | null;
  summary: { usage?: UsageMap; costUsd?: number } | null;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server?.close());

async function callsOf(project: string): Promise<Map<string, StoredCall>> {
  const reply = await post(server.url, routes.callQuery(), { project, limit: 1_000 });
  expect(reply.status).toBe(200);
  return new Map((reply.body.calls as StoredCall[]).map((call) => [call.opName, call]));
}

async function send(project: string, spans: ReadableSpan[]): Promise<void> {
  const exporter = otlpExporter('protobuf', server.url, { headers: { 'x-weft-project': project } });
  expect((await exportSpans(exporter, spans)).code).toBe(EXPORT_SUCCESS);
}

/** A model call's own usage, priced as the SDK and the mapping price it. */
function own(model: string, inputTokens: number, outputTokens: number): UsageMap {
  return priceUsage({
    [model]: { requests: 1, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
  });
}

/** What the SDK's tracer shows for a parent: its own usage, then each child's total added as the child ends. */
function sdkTotal(...parts: (UsageMap | undefined)[]): UsageMap | undefined {
  let total: UsageMap | undefined;
  for (const part of parts) total = addUsage(total, part);
  return total;
}

const chat = (model: string, input: number, output: number): Attributes => ({
  'gen_ai.operation.name': 'chat',
  'gen_ai.request.model': model,
  'gen_ai.usage.input_tokens': input,
  'gen_ai.usage.output_tokens': output,
});

/**
 * One agent's spans, ended, for `project`:
 *
 *     agent ─┬─ plan (gpt-4o 1000/200)
 *            └─ step ─┬─ search (tool, no usage) ── summarize (claude 300/40)
 *                     └─ answer (gpt-4o 500/60)
 *
 * `pick` gives the named ones.
 */
function agentTree(project: string): {
  spans: () => ReadableSpan[];
  pick: (...names: string[]) => ReadableSpan[];
} {
  const { tracer, spans } = recordingTracer({ 'service.name': project });
  const agent = startChild(tracer, 'agent', undefined, { 'gen_ai.operation.name': 'invoke_agent' });
  const plan = startChild(tracer, 'plan', agent, chat('gpt-4o', 1_000, 200));
  const step = startChild(tracer, 'step', agent, {});
  const search = startChild(tracer, 'search', step, { 'gen_ai.operation.name': 'execute_tool' });
  const summarize = startChild(tracer, 'summarize', search, chat('claude-sonnet-4-5', 300, 40));
  const answer = startChild(tracer, 'answer', step, chat('gpt-4o', 500, 60));
  for (const span of [summarize, search, answer, step, plan, agent]) span.end();
  const byName = new Map(spans().map((span) => [span.name, span]));
  return { spans, pick: (...names) => names.map((name) => byName.get(name) as ReadableSpan) };
}

describe('usage roll-up of OTLP-ingested calls', () => {
  it('totals nested GenAI spans sent child-first over several requests and re-sent, as the SDK would', async () => {
    const project = 'rollup-nested';
    const { spans, pick } = agentTree(project);

    // Leaves first, the root before its middle, everything again, then a re-sent leaf.
    await send(project, pick('summarize', 'answer'));
    await send(project, pick('agent', 'plan'));
    await send(project, pick('search'));
    await send(project, pick('step'));
    await send(project, spans());
    await send(project, pick('summarize'));

    const planUsage = own('gpt-4o', 1_000, 200);
    const summarizeUsage = own('claude-sonnet-4-5', 300, 40);
    const answerUsage = own('gpt-4o', 500, 60);
    const searchTotal = sdkTotal(summarizeUsage);
    const stepTotal = sdkTotal(searchTotal, answerUsage);
    const agentTotal = sdkTotal(planUsage, stepTotal);

    const calls = await callsOf(project);
    expect(calls.get('summarize')?.summary?.usage).toEqual(summarizeUsage);
    expect(calls.get('search')?.summary?.usage).toEqual(searchTotal);
    expect(calls.get('step')?.summary?.usage).toEqual(stepTotal);
    const root = calls.get('agent');
    expect(root?.summary?.usage).toEqual(agentTotal);
    expect(root?.summary?.usage?.['gpt-4o']).toMatchObject({
      requests: 2,
      inputTokens: 1_500,
      outputTokens: 260,
    });
    expect(root?.summary?.costUsd).toBe(totalCostUsd(agentTotal));
    expect(root?.summary?.costUsd).toBeGreaterThan(0);

    // The query filters and session totals read the stored totals too.
    const costly = await post(server.url, routes.callQuery(), {
      project,
      parentId: null,
    });
    expect(costly.body.calls.map((call: StoredCall) => call.summary?.usage)).toEqual([agentTotal]);
  });

  it('totals a parent sent with some of its children after the others were stored, across a restart', async () => {
    const project = 'rollup-split';
    const { spans, pick } = agentTree(project);

    // A leaf of each parent first; the rest of the tree together after a
    // restart, so each parent's totals over that request miss a stored child.
    await send(project, pick('answer', 'plan'));
    await server.restart();
    await send(project, pick('agent', 'step', 'search', 'summarize'));

    const summarizeUsage = own('claude-sonnet-4-5', 300, 40);
    const stepTotal = sdkTotal(summarizeUsage, own('gpt-4o', 500, 60));
    const agentTotal = sdkTotal(own('gpt-4o', 1_000, 200), stepTotal);
    const calls = await callsOf(project);
    expect(calls.get('search')?.summary?.usage).toEqual(sdkTotal(summarizeUsage));
    expect(calls.get('step')?.summary?.usage).toEqual(stepTotal);
    expect(calls.get('agent')?.summary?.usage).toEqual(agentTotal);
    expect(calls.get('agent')?.summary?.costUsd).toBe(totalCostUsd(agentTotal));

    // Re-sent whole, the tree keeps the same totals.
    await send(project, spans());
    const again = await callsOf(project);
    expect(again.get('agent')?.summary?.usage).toEqual(agentTotal);
    expect(again.get('step')?.summary?.usage).toEqual(stepTotal);
  });

  it("does not add an AI SDK outer span's steps twice, but adds what ran under its tool calls", async () => {
    const project = 'rollup-ai-sdk';
    const { tracer, spans } = recordingTracer({ 'service.name': project });
    const sdkUsage = (input: number, output: number): Attributes => ({
      'ai.model.id': 'gpt-4o',
      'ai.usage.inputTokens': input,
      'ai.usage.outputTokens': output,
    });
    // ai.generateText reports the total of its two steps (30+40 / 8+1); a
    // tool call runs a nested ai.generateText (20/2) that the outer total
    // does not include.
    const outer = startChild(tracer, 'ai.generateText', undefined, {
      'ai.operationId': 'ai.generateText',
      ...sdkUsage(70, 9),
    });
    const step1 = startChild(tracer, 'ai.generateText.doGenerate', outer, {
      'ai.operationId': 'ai.generateText.doGenerate',
      ...sdkUsage(30, 8),
    });
    const tool = startChild(tracer, 'ai.toolCall', outer, {
      'ai.operationId': 'ai.toolCall',
      'ai.toolCall.name': 'ask',
    });
    const inner = startChild(tracer, 'inner.generateText', tool, {
      'ai.operationId': 'ai.generateText',
      ...sdkUsage(20, 2),
    });
    const innerStep = startChild(tracer, 'inner.doGenerate', inner, {
      'ai.operationId': 'ai.generateText.doGenerate',
      ...sdkUsage(20, 2),
    });
    const step2 = startChild(tracer, 'ai.generateText.doGenerate#2', outer, {
      'ai.operationId': 'ai.generateText.doGenerate',
      ...sdkUsage(40, 1),
    });
    for (const span of [step1, innerStep, inner, tool, step2, outer]) span.end();
    const all = spans();
    await send(project, all.slice(3));
    await send(project, all.slice(0, 3));
    await send(project, all);

    const calls = await callsOf(project);
    expect(calls.get('inner.generateText')?.summary?.usage).toEqual(own('gpt-4o', 20, 2));
    expect(calls.get('ai.toolCall')?.summary?.usage).toEqual(own('gpt-4o', 20, 2));
    expect(calls.get('ai.generateText')?.summary?.usage).toEqual(
      sdkTotal(own('gpt-4o', 70, 9), own('gpt-4o', 20, 2)),
    );
  });

  it('adds an SDK-recorded call under a span with its own totals, and never changes an SDK-recorded parent', async () => {
    const project = 'rollup-mixed';
    const { tracer, spans } = recordingTracer({ 'service.name': project });
    const root = startChild(tracer, 'request', undefined, {});
    const llm = startChild(tracer, 'llm', root, chat('gpt-4o', 100, 10));
    llm.end();
    root.end();
    const traceHex = root.spanContext().traceId;
    const idOf = (span: Span) => callIdOfSpan(traceHex, span.spanContext().spanId);
    // The SDK recorded an op inside the `request` span (its summary already
    // totals its own descendants) and an op whose children are spans.
    const sdkChildUsage = own('gpt-4o-mini', 1_000, 100);
    const sdkParentId = callIdOfSpan(traceHex, 'a1a2a3a4a5a6a7a8');
    const sdkParentSummary = {
      latencyMs: 5,
      status: 'success',
      usage: own('gpt-4o-mini', 7, 7),
      costUsd: totalCostUsd(own('gpt-4o-mini', 7, 7)),
    };
    const native = await post(server.url, routes.callBatch(), {
      project,
      items: [
        {
          type: 'complete',
          id: callIdOfSpan(traceHex, 'b1b2b3b4b5b6b7b8'),
          traceId: traceIdOfOtel(traceHex),
          parentId: idOf(root),
          opName: 'sdk-op',
          startedAt: 1,
          endedAt: 2,
          inputs: {},
          summary: {
            latencyMs: 1,
            status: 'success',
            usage: sdkChildUsage,
            costUsd: totalCostUsd(sdkChildUsage),
          },
        },
        {
          type: 'complete',
          id: sdkParentId,
          traceId: traceIdOfOtel(traceHex),
          parentId: null,
          opName: 'sdk-parent',
          startedAt: 1,
          endedAt: 3,
          inputs: {},
          summary: sdkParentSummary,
        },
      ],
    });
    expect(native.status).toBeLessThan(300);
    // A span whose parent is the SDK's call (the one-tree bridge's direction).
    const sdkParentContext = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: traceHex,
      spanId: 'a1a2a3a4a5a6a7a8',
      traceFlags: 1,
      isRemote: true,
    });
    tracer.startSpan('under-sdk', { attributes: chat('gpt-4o', 50, 5) }, sdkParentContext).end();
    await send(project, spans());

    const calls = await callsOf(project);
    expect(calls.get('request')?.summary?.usage).toEqual(sdkTotal(own('gpt-4o', 100, 10), sdkChildUsage));
    expect(calls.get('sdk-op')?.summary?.usage).toEqual(sdkChildUsage);
    expect(calls.get('under-sdk')?.parentId).toBe(sdkParentId);
    expect(calls.get('sdk-parent')?.summary).toEqual(sdkParentSummary);
  });
});
