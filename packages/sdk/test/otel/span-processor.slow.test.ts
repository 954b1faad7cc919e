import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { callIdOfSpan, traceIdOfOtel } from '@weft/protocol';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import * as weft from '@weft/sdk';
import { WeftSpanProcessor } from '../../src/otel/index.js';
import { resetWeft } from '../../src/testing/index.js';
import { startFaultEnv, tempDir } from '../faults/run-fault.js';
import { checkServer } from '../faults/server-check.js';
import { listServerCalls } from '../support/index.js';

afterEach(async () => {
  await resetWeft();
});

/** A tracer provider of the test's own (not registered globally) whose only processor is `processor`. */
function tracerWith(processor: WeftSpanProcessor) {
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  return provider.getTracer('span-processor-test');
}

/** Ends `n` spans and returns their Weft call ids. */
function endSpans(tracer: ReturnType<typeof tracerWith>, n: number, prefix = 'span'): string[] {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const span = tracer.startSpan(`${prefix}-${i}`, { attributes: { i } });
    span.end();
    ids.push(callIdOfSpan(span.spanContext().traceId, span.spanContext().spanId));
  }
  return ids;
}

describe('WeftSpanProcessor', () => {
  it('under a paused server, weft.flush() waits, and every span is on the server after resume', async () => {
    const { server, proxy } = await startFaultEnv();
    weft.init({ project: 'otel-paused', url: proxy.url, outbox: false, handleExit: false });
    const tracer = tracerWith(new WeftSpanProcessor());
    proxy.pause();
    const ids = endSpans(tracer, 500);
    let flushed = false;
    const flushing = weft.flush().then((result) => {
      flushed = true;
      return result;
    });
    await proxy.waitFor((c) => c.held > 0);
    expect(flushed).toBe(false);
    proxy.resume();
    expect(await flushing).toMatchObject({ sent: 500, failed: 0, pending: 0 });
    const check = await checkServer(server.url, 'otel-paused', ids);
    expect(check.missing).toEqual([]);
  });

  it('keeps spans in the durable outbox while the server fails, and delivers them once it is back', async () => {
    const { server, proxy } = await startFaultEnv();
    const client = weft.init({
      project: 'otel-outbox',
      url: proxy.url,
      outboxDir: await tempDir('weft-otel-outbox-'),
      handleExit: false,
    });
    onTestFinished(async () => {
      proxy.passThrough();
      await client.shutdown({ timeoutMs: 2_000 });
    });
    const processor = new WeftSpanProcessor({ flushTimeoutMs: 1_000 });
    const tracer = tracerWith(processor);
    proxy.respond(503);
    const ids = endSpans(tracer, 300);
    // Spans in the outbox count as done: forceFlush resolves at its deadline, nothing pending (the OTel
    // contract: nothing ended before it is left unexported).
    await processor.forceFlush();
    expect(proxy.counters.injected).toBeGreaterThan(0);
    proxy.passThrough();
    // Once the server takes them again, the next flush replays the outbox before it resolves.
    expect(await client.flush()).toMatchObject({ pending: 0, failed: 0 });
    expect(client.diagnostics().outbox?.records).toBe(0);
    const check = await checkServer(server.url, 'otel-outbox', ids);
    expect(check.missing).toEqual([]);
  });

  it('forceFlush() rejects with WEFT_OTEL_FLUSH_INCOMPLETE when its timeout passes before the server answers', async () => {
    const { proxy } = await startFaultEnv();
    weft.init({ project: 'otel-timeout', url: proxy.url, outbox: false, handleExit: false });
    const processor = new WeftSpanProcessor({ flushTimeoutMs: 100 });
    endSpans(tracerWith(processor), 5);
    proxy.pause();
    await expect(processor.forceFlush()).rejects.toMatchObject({ code: 'WEFT_OTEL_FLUSH_INCOMPLETE' });
    proxy.resume();
    expect(await weft.flush()).toMatchObject({ failed: 0, pending: 0 });
  });

  it('shutdown() flushes, ignores spans that end later, joins a second call, and leaves the Weft client open', async () => {
    const { server, proxy } = await startFaultEnv();
    const client = weft.init({ project: 'otel-shutdown', url: proxy.url, outbox: false, handleExit: false });
    const processor = new WeftSpanProcessor();
    const tracer = tracerWith(processor);
    const before = endSpans(tracer, 3, 'before');
    const first = processor.shutdown();
    expect(processor.shutdown()).toBe(first);
    await first;
    endSpans(tracer, 3, 'after');
    await processor.forceFlush(); // a no-op after shutdown, never an error
    const step = client.op(() => 'still traced', { name: 'step' });
    step();
    await client.flush();
    const names = (await listServerCalls(server.url, 'otel-shutdown')).map((c) => c.opName).sort();
    expect(names).toEqual(['before-0', 'before-1', 'before-2', 'step']);
    expect((await checkServer(server.url, 'otel-shutdown', before)).missing).toEqual([]);
  });

  it("records span links as otel.links with the linked calls' Weft ids, as OTLP ingest does", async () => {
    const { server } = await startFaultEnv();
    weft.init({ project: 'otel-links', url: server.url, outbox: false, handleExit: false });
    const tracer = tracerWith(new WeftSpanProcessor());
    const producer = tracer.startSpan('produce');
    producer.end();
    const { traceId, spanId } = producer.spanContext();
    tracer.startSpan('consume', { links: [{ context: producer.spanContext(), attributes: { n: 1 } }] }).end();
    await weft.flush();
    const consume = (await listServerCalls(server.url, 'otel-links')).find(
      (call) => call.opName === 'consume',
    );
    expect(consume?.attributes).toMatchObject({
      'otel.links': [
        { traceId: traceIdOfOtel(traceId), callId: callIdOfSpan(traceId, spanId), attributes: { n: 1 } },
      ],
    });
  });

  it('rejects options it cannot use with a typed error', () => {
    expect(() => new WeftSpanProcessor({ flushTimeoutMs: -1 })).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_OPTIONS' }),
    );
    expect(() => new WeftSpanProcessor({ client: 'nope' } as never)).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_OPTIONS' }),
    );
  });
});
