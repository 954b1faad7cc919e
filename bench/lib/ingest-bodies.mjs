// The request bodies of the ingest bench (bench/ingest.mjs, bench/ingest-sql.mjs):
// native msgpack call batches and OTLP/HTTP export requests of GenAI spans made
// by the real OpenTelemetry SDK and its exporters' serializers.
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { encodeMsgpack } from '@weft/protocol';
import { v7 as uuidv7 } from 'uuid';

/**
 * Record i's latency, 50–2,000 ms spread over the records as real calls'
 * are (the OTLP spans get the same): with one latency for every record, the
 * latency index took native records in id order, at its end, and native
 * ingest looked 13–20% faster than it is.
 */
export function latencyOf(i) {
  return 50 + ((i * 7919) % 1951);
}

/**
 * A 'complete' call record padded so its msgpack encoding is about `bytes`
 * long; every tenth is a root whose id is its trace id, and the nine after it
 * are its children, as the SDK records them.
 */
export function makeRecord(i, bytes, traceId) {
  const startedAt = Date.now() + i;
  const latencyMs = latencyOf(i);
  const record = {
    type: 'complete',
    id: i % 10 === 0 ? traceId : uuidv7(),
    traceId,
    parentId: i % 10 === 0 ? null : traceId,
    opName: `weft:///bench/op/chat:${'A'.repeat(43)}`,
    displayName: `chat #${i}`,
    startedAt,
    endedAt: startedAt + latencyMs,
    inputs: { model: 'gpt-bench', messages: [{ role: 'user', content: '' }], temperature: 0.2 },
    output: { role: 'assistant', content: '' },
    summary: {
      latencyMs,
      status: 'success',
      usage: { 'gpt-bench': { requests: 1, inputTokens: 120, outputTokens: 80, totalTokens: 200 } },
    },
    attributes: { env: 'bench', run: 1 },
  };
  const base = encodeMsgpack(record).byteLength;
  const pad = Math.max(0, bytes - base - 8);
  record.inputs.messages[0].content = 'q'.repeat(Math.ceil(pad / 2));
  record.output.content = 'a'.repeat(Math.floor(pad / 2));
  return record;
}

/** Native call batches: msgpack bodies of `batchSize` records of about `recordBytes`. */
export function nativeBodies({ project, records, recordBytes, batchSize }) {
  const bodies = [];
  let traceId = uuidv7();
  for (let i = 0; i < records; i += batchSize) {
    const items = [];
    for (let j = i; j < Math.min(records, i + batchSize); j++) {
      if (j % 10 === 0) traceId = uuidv7();
      items.push(makeRecord(j, recordBytes, traceId));
    }
    bodies.push({ body: Buffer.from(encodeMsgpack({ project, items })), items: items.length });
  }
  return { path: '/v1/calls/batch', contentType: 'application/msgpack', otlp: false, bodies };
}

/**
 * OTLP bodies of `batchSize` GenAI chat spans (current gen_ai.* conventions:
 * messages, model, usage), in traces of 10 (a root and 9 children), from the
 * real SDK and serializer. Each span carries the same message text as the
 * native record of `recordBytes` (`makeRecord`), so both store the same calls
 * and only the encoding differs: padding each span to `recordBytes` of its
 * own encoding instead left OTLP JSON's spans (whose envelope alone is ~870 B)
 * with empty messages, about 540 characters less to store and index than a
 * native record, and its share of native looked ~15 points better than it is.
 */
export function otlpBodies({ format, project, records, recordBytes, batchSize }) {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'bench-app', 'weft.project': project }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer('weft-bench');
  const serializer = format === 'otlp-proto' ? ProtobufTraceSerializer : JsonTraceSerializer;
  // The native record's message text, as the span's messages.
  const native = makeRecord(0, recordBytes, uuidv7());
  const question = native.inputs.messages[0].content;
  const answer = native.output.content;
  const spanOf = (parent, startTime) => {
    const context = parent === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, parent);
    return tracer.startSpan(
      'chat gpt-4o',
      {
        kind: SpanKind.CLIENT,
        startTime,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.input.messages': JSON.stringify([
            { role: 'user', parts: [{ type: 'text', content: question }] },
          ]),
          'gen_ai.output.messages': JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: answer }] },
          ]),
          'gen_ai.usage.input_tokens': 120,
          'gen_ai.usage.output_tokens': 80,
        },
      },
      context,
    );
  };
  const bodies = [];
  for (let i = 0; i < records; i += batchSize) {
    let root;
    for (let j = i; j < Math.min(records, i + batchSize); j++) {
      const startedAt = Date.now() + j;
      const span = spanOf(j % 10 === 0 ? undefined : root, startedAt);
      if (j % 10 === 0) root = span;
      span.end(startedAt + latencyOf(j));
    }
    const spans = memory.getFinishedSpans();
    bodies.push({ body: Buffer.from(serializer.serializeRequest(spans)), items: spans.length });
    memory.reset();
  }
  const contentType = format === 'otlp-proto' ? 'application/x-protobuf' : 'application/json';
  return { path: '/v1/traces', contentType, otlp: true, bodies };
}
