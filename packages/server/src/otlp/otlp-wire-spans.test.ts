import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import fc from 'fast-check';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, TooManyValuesError } from '../errors/index.js';
import { decodeTraceRequest } from './otlp-codec.js';
import { OTLP_DESCRIPTOR } from './otlp-descriptor.js';
import { spansOfOtlp } from './otlp-spans.js';
import { spansOfOtlpProtobuf } from './otlp-wire-spans.js';

/** The request type as the official definitions give it, to encode with. */
const OfficialRequest = protobuf.Root.fromJSON(OTLP_DESCRIPTOR)
  .resolveAll()
  .lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');

/** The neutral spans through protobufjs' decoder, as ingest read them before `spansOfOtlpProtobuf`. */
const viaProtobufjs = (bytes: Uint8Array) => spansOfOtlp(decodeTraceRequest(bytes));

/** What a call throws: its error's class and message, or `undefined`. */
function thrown(read: () => unknown): { invalid: boolean; message: string } | undefined {
  try {
    read();
    return undefined;
  } catch (error) {
    return {
      invalid: InvalidRequestError.isInstance(error),
      message: (error as InvalidRequestError).issues[0]?.message ?? '',
    };
  }
}

const leaf = fc.oneof(
  fc.record({ stringValue: fc.string() }),
  fc.record({ boolValue: fc.boolean() }),
  fc.record({ intValue: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String) }),
  fc.record({ doubleValue: fc.double() }),
  fc.record({ bytesValue: fc.uint8Array({ maxLength: 12 }) }),
  fc.constant({}),
);
const { anyValue } = fc.letrec((tie) => ({
  anyValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ arrayValue: fc.record({ values: fc.array(tie('anyValue'), { maxLength: 3 }) }) }),
    fc.record({ kvlistValue: fc.record({ values: fc.array(tie('keyValue'), { maxLength: 3 }) }) }),
  ),
  keyValue: fc.record({ key: fc.constantFrom('a', 'b', '', '__proto__', 'x.y'), value: tie('anyValue') }),
}));
const attributes = fc.array(
  fc.record(
    { key: fc.constantFrom('k', 'model', '', 'k2', 'constructor'), value: anyValue },
    { requiredKeys: ['key'] },
  ),
  { maxLength: 5 },
);
const nanos = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String);
const id = (bytes: number) =>
  fc.oneof(fc.uint8Array({ minLength: bytes, maxLength: bytes }), fc.uint8Array({ maxLength: 3 }));
const span = fc.record(
  {
    traceId: id(16),
    spanId: id(8),
    parentSpanId: id(8),
    name: fc.string(),
    kind: fc.integer({ min: -1, max: 7 }),
    startTimeUnixNano: nanos,
    endTimeUnixNano: nanos,
    attributes,
    events: fc.array(
      fc.record({ timeUnixNano: nanos, name: fc.string(), attributes }, { requiredKeys: [] }),
      {
        maxLength: 2,
      },
    ),
    links: fc.array(fc.record({ traceId: id(16), spanId: id(8), attributes }, { requiredKeys: [] }), {
      maxLength: 2,
    }),
    status: fc.record({ code: fc.integer({ min: 0, max: 3 }), message: fc.string() }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);
const request = fc.record({
  resourceSpans: fc.array(
    fc.record(
      {
        resource: fc.record({ attributes }),
        scopeSpans: fc.array(
          fc.record(
            {
              scope: fc.record({ name: fc.string(), version: fc.string() }, { requiredKeys: [] }),
              spans: fc.array(span, { maxLength: 3 }),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
      },
      { requiredKeys: [] },
    ),
    { maxLength: 2 },
  ),
});

describe('spansOfOtlpProtobuf', () => {
  it('reads what the OpenTelemetry SDK exports as protobufjs and spansOfOtlp read it', () => {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'wire', 'weft.project': 'p', pid: 42 }),
      spanProcessors: [new SimpleSpanProcessor(memory)],
    });
    const tracer = provider.getTracer('wire-test', '1.2.3');
    const root = tracer.startSpan('chat', {
      kind: SpanKind.CLIENT,
      attributes: { 'gen_ai.request.model': 'gpt-4o', n: 120, ratio: 0.5, ok: false, list: ['a', 'b'] },
    });
    root.addEvent('gen_ai.choice', { index: 0 });
    root.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
    const child = tracer.startSpan(
      'tool',
      { links: [{ context: root.spanContext() }] },
      trace.setSpan(ROOT_CONTEXT, root),
    );
    child.end();
    root.end();
    const bytes = ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans()) as Uint8Array;

    const spans = spansOfOtlpProtobuf(bytes);
    expect(spans).toEqual(viaProtobufjs(bytes));
    expect(spans[0]?.spans).toHaveLength(2);
  });

  it('reads any request an encoder with the official definitions writes as protobufjs and spansOfOtlp read it', () => {
    fc.assert(
      fc.property(request, (value) => {
        const bytes = OfficialRequest.encode(OfficialRequest.fromObject(value)).finish();
        expect(spansOfOtlpProtobuf(bytes)).toEqual(viaProtobufjs(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a cut request (400) where protobufjs does', () => {
    const bytes = OfficialRequest.encode(
      OfficialRequest.fromObject({
        resourceSpans: [
          {
            scopeSpans: [{ spans: [{ name: 'a', attributes: [{ key: 'k', value: { stringValue: 'v' } }] }] }],
          },
        ],
      }),
    ).finish();
    for (let cut = 1; cut < bytes.byteLength; cut++) {
      const part = bytes.subarray(0, cut);
      const ours = thrown(() => spansOfOtlpProtobuf(part));
      const theirs = thrown(() => viaProtobufjs(part));
      expect(ours === undefined, `cut at ${cut}`).toBe(theirs === undefined);
      if (ours !== undefined)
        expect(ours).toMatchObject({ invalid: true, message: expect.stringContaining('not an OTLP') });
    }
  });

  it.each([30, 40])(
    'answers an attribute %i kvlists deep as protobufjs does (its depth limit: 400 naming the nesting)',
    (depth) => {
      // By hand: the encoder's own depth limit refuses to write such a value.
      const field = (no: number, bytes: Uint8Array) =>
        protobuf.Writer.create()
          .uint32((no << 3) | 2)
          .bytes(bytes)
          .finish();
      const text = (no: number, value: string) =>
        protobuf.Writer.create()
          .uint32((no << 3) | 2)
          .string(value)
          .finish();
      let value = text(1, 'bottom');
      for (let i = 0; i < depth; i++)
        value = field(6, field(1, Buffer.concat([text(1, 'k'), field(2, value)])));
      const keyValue = Buffer.concat([text(1, 'deep'), field(2, value)]);
      const bytes = field(1, field(2, field(2, field(9, keyValue))));
      const ours = thrown(() => spansOfOtlpProtobuf(bytes));
      expect(ours).toEqual(thrown(() => viaProtobufjs(bytes)));
      if (depth === 40) expect(ours?.message).toContain('nested too deeply');
      else expect(spansOfOtlpProtobuf(bytes)).toEqual(viaProtobufjs(bytes));
    },
  );

  it('refuses a request of more fields than its budget with 413, counting nested fields', () => {
    const values = Array.from({ length: 50 }, () => ({}));
    const bytes = OfficialRequest.encode(
      OfficialRequest.fromObject({
        resourceSpans: [
          { scopeSpans: [{ spans: [{ attributes: [{ key: 'k', value: { arrayValue: { values } } }] }] }] },
        ],
      }),
    ).finish();
    // request → resourceSpans → scopeSpans → span → attribute → key, value → arrayValue → 50 values: 57 fields.
    expect(() => spansOfOtlpProtobuf(bytes, 56)).toThrow(TooManyValuesError);
    expect(spansOfOtlpProtobuf(bytes, 57)[0]?.spans[0]?.attributes.k).toHaveLength(50);
  });
});
