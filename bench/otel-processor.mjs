// The caller's cost per span of WeftSpanProcessor next to OpenTelemetry's BatchSpanProcessor, in one run.
//
// Build first (`npx turbo run build`), then: node bench/otel-processor.mjs
//
// Three tracer providers make the same LLM-like span (~1 KB of GenAI attributes: model, messages, usage):
// none (no processor: the cost of creating and ending a span), BatchSpanProcessor with an exporter that
// accepts everything at once, and WeftSpanProcessor on a Weft client whose records go to a null sink.
// A processor's caller cost = its loop minus the no-processor loop. Rounds interleave the three so the
// machine's (shared, varying) load weighs on all alike; each round is flushed before the next, so the
// BatchSpanProcessor never drops spans for a full queue (its default queue holds 2,048; a round is 2,000).
import { performance } from 'node:perf_hooks';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { WeftSpanProcessor } from '@weft/sdk/otel';
import { createClient } from '@weft/sdk/testing';
import os from 'node:os';
import { writeResultsSection } from './lib/results-file.mjs';

const N = 2_000;
const ROUNDS = 25;
const WARMUP = 5;

const messages = JSON.stringify([
  { role: 'system', content: 'You are a helpful agent. '.repeat(8) },
  { role: 'user', content: 'Plan the trip and book the hotel. '.repeat(12) },
]);
const output = JSON.stringify([
  { role: 'assistant', content: 'Booked the hotel in Paris for two nights. '.repeat(6) },
]);
const attributes = {
  'gen_ai.operation.name': 'chat',
  'gen_ai.request.model': 'gpt-4o',
  'gen_ai.input.messages': messages,
  'gen_ai.output.messages': output,
  'gen_ai.usage.input_tokens': 120,
  'gen_ai.usage.output_tokens': 40,
};
const spanBytes = Buffer.byteLength(JSON.stringify(attributes));

const nullSink = () => ({
  add(r) {
    setImmediate(() => r.done({ status: 'sent' }));
  },
  flush: async () => {},
});
const acceptAll = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };

const weftClient = createClient({ project: 'bench-otel', outbox: false, handleExit: false }, nullSink);
const weftProcessor = new WeftSpanProcessor({ client: weftClient });
const batchProcessor = new BatchSpanProcessor(acceptAll);
const providers = {
  none: new BasicTracerProvider(),
  batch: new BasicTracerProvider({ spanProcessors: [batchProcessor] }),
  weft: new BasicTracerProvider({ spanProcessors: [weftProcessor] }),
};
const tracers = Object.fromEntries(Object.entries(providers).map(([k, p]) => [k, p.getTracer('bench')]));

function loop(tracer) {
  const t0 = performance.now();
  for (let i = 0; i < N; i++) tracer.startSpan('chat gpt-4o', { attributes }).end();
  return ((performance.now() - t0) * 1000) / N;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round2 = (x) => Math.round(x * 100) / 100;

const times = { none: [], batch: [], weft: [] };
const weftCpu = [];
for (let round = 0; round < ROUNDS + WARMUP; round++) {
  for (const kind of ['none', 'batch', 'weft']) {
    const us = loop(tracers[kind]);
    let cpu;
    if (kind === 'weft') {
      // CPU of the deferred work too (mapping, walk, encode), measured until Weft's flush resolved.
      const c0 = process.cpuUsage();
      await weftClient.flush();
      const c = process.cpuUsage(c0);
      cpu = (c.user + c.system) / N;
    } else if (kind === 'batch') await batchProcessor.forceFlush();
    if (round >= WARMUP) {
      times[kind].push(us);
      if (cpu !== undefined) weftCpu.push(cpu);
    }
  }
}
await weftClient.shutdown();

const none = median(times.none);
const batch = median(times.batch);
const weft = median(times.weft);
const result = {
  spanAttributeBytes: spanBytes,
  spanNoProcessorUs: round2(none),
  batchSpanProcessorCallerUs: round2(batch - none),
  weftSpanProcessorCallerUs: round2(weft - none),
  weftDeferredCpuUsPerSpan: round2(median(weftCpu)),
};
console.log(result);

const load = os.loadavg()[0].toFixed(2);
await writeResultsSection(
  'OTel span processor',
  `## OTel span processor

\`node bench/otel-processor.mjs\` — ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} CPUs, 1-minute load average ${load} (other work on the machine).
The same LLM-like span (${spanBytes} bytes of GenAI attributes: model, input/output messages, usage) made and ended
${N.toLocaleString('en-US')} times per round on three tracer providers, rounds interleaved, medians of ${ROUNDS} rounds after
${WARMUP} warm-up rounds. A processor's caller cost is its loop minus the loop without any processor. BatchSpanProcessor
exports to an exporter that accepts at once; WeftSpanProcessor records into a Weft client whose records go to a null sink.

| | µs per span |
| --- | ---: |
| startSpan + end, no processor | ${result.spanNoProcessorUs} |
| BatchSpanProcessor, caller cost (onEnd) | ${result.batchSpanProcessorCallerUs} |
| WeftSpanProcessor, caller cost (onEnd) | ${result.weftSpanProcessorCallerUs} |
| WeftSpanProcessor, deferred CPU (mapping, walk, msgpack encode; until \`flush()\` resolved) | ${result.weftDeferredCpuUsPerSpan} |

WeftSpanProcessor's \`onEnd\` keeps the span by reference and queues one record (the mapping to a Weft call runs in the
pipeline's pool), so its caller cost is of the same order as BatchSpanProcessor's queue push; unlike that queue it never
drops a span when full (over the memory bound records go to the durable outbox).
`,
);
