import { type Attributes, context, ROOT_CONTEXT, type Span, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { CallSummary } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { WeftSpanProcessor } from '../../src/otel/index.js';
import { resetWeft } from '../../src/testing/index.js';
import { startTestServer, type TestServer } from '@weft/test-server';
import { listServerCalls } from '../support/index.js';

// One agent tree, traced three ways against one real server: with Weft ops
// (the SDK rolls each call's usage into its parent as it ends); as OTel GenAI
// spans exported over OTLP, split into requests that arrive child-first and
// partly twice (the server rolls usage up the ingested trace); and as OTel
// spans recorded in-process by WeftSpanProcessor under a Weft op (the SDK
// rolls span usage up as spans end, into the op). Every call must show the
// same usage and cost each way.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ register: afterAll });
});
afterAll(() => resetWeft());

interface Model {
  model: string;
  input: number;
  output: number;
}

//  agent ─┬─ plan (gpt-4o)
//         └─ step ─┬─ search ── summarize (claude)
//                  └─ answer (gpt-4o)
const PLAN: Model = { model: 'gpt-4o', input: 1_200, output: 150 };
const SUMMARIZE: Model = { model: 'claude-sonnet-4-5', input: 800, output: 90 };
const ANSWER: Model = { model: 'gpt-4o', input: 400, output: 35 };

/** What an LLM client returns, as the SDK reads usage from an op's output. */
const reply = ({ model, input, output }: Model) => ({
  model,
  choices: [{ message: { role: 'assistant', content: 'ok' } }],
  usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
});

async function traceWithOps(project: string): Promise<void> {
  const client = weft.init({ project, url: server.url, outbox: false, handleExit: false });
  const llm = (name: string, model: Model) => weft.op(async () => reply(model), { name });
  const plan = llm('plan', PLAN);
  const summarize = llm('summarize', SUMMARIZE);
  const answer = llm('answer', ANSWER);
  const search = weft.op(async () => (await summarize()).choices, { name: 'search' });
  const step = weft.op(
    async () => {
      await search();
      return (await answer()).choices;
    },
    { name: 'step' },
  );
  const agent = weft.op(
    async () => {
      await plan();
      return step();
    },
    { name: 'agent' },
  );
  await agent();
  await client.flush();
}

async function traceWithSpans(project: string): Promise<void> {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
  const tracer = provider.getTracer('rollup');
  const start = (name: string, parent: Span | undefined, attributes: Attributes = {}) =>
    tracer.startSpan(
      name,
      { attributes },
      parent === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, parent),
    );
  const chat = ({ model, input, output }: Model): Attributes => ({
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': model,
    'gen_ai.usage.input_tokens': input,
    'gen_ai.usage.output_tokens': output,
  });
  const agent = start('agent', undefined, { 'gen_ai.operation.name': 'invoke_agent' });
  const plan = start('plan', agent, chat(PLAN));
  plan.end();
  const step = start('step', agent);
  const search = start('search', step, { 'gen_ai.operation.name': 'execute_tool' });
  start('summarize', search, chat(SUMMARIZE)).end();
  search.end();
  start('answer', step, chat(ANSWER)).end();
  step.end();
  agent.end();
  const spans = memory.getFinishedSpans();
  const named = (...names: string[]) => spans.filter((span) => names.includes(span.name));
  const exporter = new OTLPTraceExporter({
    url: `${server.url}/v1/traces`,
    headers: { 'x-weft-project': project },
  });
  const send = (batch: ReadableSpan[]) =>
    new Promise<void>((resolve, reject) =>
      exporter.export(batch, (result) => (result.code === 0 ? resolve() : reject(result.error))),
    );
  // Leaves first, the root before the middle of the tree, then a leaf and everything again.
  for (const batch of [
    named('summarize', 'answer'),
    named('agent'),
    named('step', 'plan'),
    named('search'),
    named('answer'),
    spans,
  ]) {
    await send(batch);
  }
  await exporter.shutdown();
}

/** The same tree: a Weft op `agent` whose work is OTel spans of the app's provider, recorded by WeftSpanProcessor. */
async function traceWithSpansInProcess(project: string): Promise<void> {
  const client = weft.init({ project, url: server.url, outbox: false, handleExit: false });
  const provider = new NodeTracerProvider({ spanProcessors: [new WeftSpanProcessor()] });
  provider.register();
  try {
    const tracer = provider.getTracer('rollup-in-process');
    const inSpan = async <T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> =>
      tracer.startActiveSpan(name, { attributes }, async (span) => {
        try {
          return await fn();
        } finally {
          span.end();
        }
      });
    const chat = ({ model, input, output }: Model): Attributes => ({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': model,
      'gen_ai.usage.input_tokens': input,
      'gen_ai.usage.output_tokens': output,
    });
    const agent = weft.op(
      async () => {
        await inSpan('plan', chat(PLAN), async () => {});
        await inSpan('step', {}, async () => {
          await inSpan('search', { 'gen_ai.operation.name': 'execute_tool' }, () =>
            inSpan('summarize', chat(SUMMARIZE), async () => {}),
          );
          await inSpan('answer', chat(ANSWER), async () => {});
        });
      },
      { name: 'agent' },
    );
    await agent();
    await client.flush();
  } finally {
    await provider.shutdown();
    trace.disable();
    context.disable();
  }
}

/** Usage and cost of each call, by op name. */
async function totals(project: string): Promise<Record<string, Pick<CallSummary, 'usage' | 'costUsd'>>> {
  const calls = await listServerCalls(server.url, project);
  return Object.fromEntries(
    calls.map((call) => [call.opName, { usage: call.summary?.usage, costUsd: call.summary?.costUsd }]),
  );
}

describe('usage and cost of an OTLP-ingested trace', () => {
  it('equal what the SDK shows for the same tree of ops, whatever order and requests the spans came in', async () => {
    await traceWithOps('rollup-sdk');
    await traceWithSpans('rollup-otlp');
    const sdk = await totals('rollup-sdk');
    const otlp = await totals('rollup-otlp');
    expect(Object.keys(sdk).sort()).toEqual(['agent', 'answer', 'plan', 'search', 'step', 'summarize']);
    expect(sdk.agent?.usage?.['gpt-4o']).toMatchObject({
      requests: 2,
      inputTokens: 1_600,
      outputTokens: 185,
    });
    expect(sdk.agent?.usage?.['claude-sonnet-4-5']).toMatchObject({
      requests: 1,
      inputTokens: 800,
      outputTokens: 90,
    });
    expect(sdk.agent?.costUsd).toBeGreaterThan(0);
    expect(otlp).toEqual(sdk);
  });

  it('equal what the SDK shows when the spans are recorded in-process by WeftSpanProcessor under a Weft op', async () => {
    await traceWithOps('rollup-sdk-2');
    await traceWithSpansInProcess('rollup-in-process');
    expect(await totals('rollup-in-process')).toEqual(await totals('rollup-sdk-2'));
  });
});
