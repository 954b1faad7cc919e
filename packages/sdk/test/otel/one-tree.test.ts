import { context, type Span, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { callIdOfSpan, otelSpanIdOf, otelTraceIdOf, traceIdOfOtel } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { otelIdsOf, WeftSpanProcessor } from '../../src/otel/index.js';
import { outsideCalls } from '../../src/context/index.js';
import { resetWeft } from '../../src/testing/index.js';
import { startTestServer, type TestServer } from '@weft/test-server';
import { listServerCalls } from '../support/index.js';

let server: TestServer;
let provider: NodeTracerProvider;
beforeAll(async () => {
  server = await startTestServer({ register: afterAll });
  provider = new NodeTracerProvider({ spanProcessors: [new WeftSpanProcessor()] });
  provider.register();
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  await resetWeft();
});

const tracer = () => trace.getTracer('one-tree-test');

/** An op with a fixed name (the bundler may rename function declarations). */
// biome-ignore lint/suspicious/noExplicitAny: any function signature.
const named = <F extends (...args: any[]) => any>(name: string, fn: F): F => weft.op(fn, { name });

/** Runs `fn` inside a new active OTel span that ends when `fn` settles. */
function inSpan<T>(name: string, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, async (span) => {
    try {
      return await fn(span);
    } finally {
      span.end();
    }
  });
}

describe('Weft ops and OpenTelemetry spans form one tree', () => {
  it("OTel span → Weft op → OTel span → Weft op, all in the span's trace, recorded through the span processor", async () => {
    const client = weft.init({ project: 'otel-one-tree', url: server.url, outbox: false, handleExit: false });
    const ids: Record<string, string> = {};
    const leaf = named('leaf', async function leaf(x: number) {
      ids.leaf = weft.currentCall()?.id ?? '';
      return x * 2;
    });
    const middle = named('middle', async function middle(x: number) {
      ids.middle = weft.currentCall()?.id ?? '';
      // An OTel span started inside a Weft op is its child...
      return inSpan('inner-span', async (span) => {
        ids.innerSpan = span.spanContext().spanId;
        // ...and a Weft op inside that span is the span's child.
        return leaf(x + 1);
      });
    });
    let outerTrace = '';
    let outerSpan = '';
    const result = await inSpan('outer-span', async (span) => {
      outerTrace = span.spanContext().traceId;
      outerSpan = span.spanContext().spanId;
      return middle(1);
    });
    expect(result).toBe(4);
    await client.flush();

    const calls = await listServerCalls(server.url, 'otel-one-tree');
    const byName = new Map(calls.map((c) => [c.opName, c]));
    expect([...byName.keys()].sort()).toEqual(['inner-span', 'leaf', 'middle', 'outer-span']);
    const traceId = traceIdOfOtel(outerTrace);
    for (const call of calls) expect(call.traceId).toBe(traceId);

    const outer = byName.get('outer-span');
    const mid = byName.get('middle');
    const inner = byName.get('inner-span');
    const leafCall = byName.get('leaf');
    expect(outer?.id).toBe(callIdOfSpan(outerTrace, outerSpan));
    expect(outer?.parentId).toBeNull();
    expect(mid?.id).toBe(ids.middle);
    expect(mid?.parentId).toBe(outer?.id);
    expect(inner?.id).toBe(callIdOfSpan(outerTrace, ids.innerSpan as string));
    expect(inner?.parentId).toBe(mid?.id);
    expect(leafCall?.id).toBe(ids.leaf);
    expect(leafCall?.parentId).toBe(inner?.id);
  });

  it("Weft op → OTel span: the span has the call's W3C ids as trace and parent; the call carries its W3C ids", async () => {
    const client = weft.init({
      project: 'otel-weft-root',
      url: server.url,
      outbox: false,
      handleExit: false,
    });
    let seen: { traceId: string; parentSpanId: string | undefined; spanId: string } | undefined;
    let callIds: { id: string; traceId: string } | undefined;
    const root = named('root', async function root() {
      const call = weft.currentCall();
      callIds = call === undefined ? undefined : { id: call.id, traceId: call.traceId };
      const span = tracer().startSpan('child-span');
      span.end();
      const readable = span as unknown as { parentSpanContext?: { spanId: string } };
      seen = {
        traceId: span.spanContext().traceId,
        spanId: span.spanContext().spanId,
        parentSpanId: readable.parentSpanContext?.spanId,
      };
      return 'ok';
    });
    await root();
    await client.flush();
    if (callIds === undefined || seen === undefined) throw new Error('the op did not run');
    expect(seen.traceId).toBe(otelTraceIdOf(callIds.traceId));
    expect(seen.parentSpanId).toBe(otelSpanIdOf(callIds.id));
    expect(otelIdsOf(callIds)).toEqual({
      traceId: otelTraceIdOf(callIds.traceId),
      spanId: otelSpanIdOf(callIds.id),
    });

    const calls = await listServerCalls(server.url, 'otel-weft-root');
    const span = calls.find((c) => c.opName === 'child-span');
    expect(span?.traceId).toBe(callIds.traceId);
    expect(span?.parentId).toBe(callIds.id);
    expect(span?.id).toBe(callIdOfSpan(seen.traceId, seen.spanId));
  });

  it('Weft op → Weft op keeps the Weft parent when OTel is registered, and child ids start with the trace head', async () => {
    const client = weft.init({
      project: 'otel-weft-only',
      url: server.url,
      outbox: false,
      handleExit: false,
    });
    const child = named('child', async function child() {
      return weft.currentCall();
    });
    const parent = named('parent', async function parent() {
      return { self: weft.currentCall(), child: await child() };
    });
    const { self, child: inner } = await parent();
    await client.flush();
    expect(self?.parentId).toBeNull();
    expect(self?.id).toBe(self?.traceId);
    expect(inner?.parentId).toBe(self?.id);
    expect(inner?.traceId).toBe(self?.traceId);
    expect(inner?.id.slice(0, 18)).toBe(self?.traceId.slice(0, 18));
  });

  it("work the SDK schedules runs outside the app's span with tracing suppressed (it never traces itself)", async () => {
    const seen = await inSpan('app-span', async () =>
      outsideCalls(() => ({
        active: trace.getActiveSpan(),
        recording: tracer().startSpan('sdk-internal').isRecording(),
      })),
    );
    expect(seen.active).toBeUndefined();
    expect(seen.recording).toBe(false);
  });
});
