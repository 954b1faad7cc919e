import { gzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { OTLP_DESCRIPTOR } from '../../src/otlp/otlp-descriptor.js';

// Hand-built OTLP requests for tests that need what no exporter sends:
// bad ids, odd attribute types, thousands of spans, broken bytes.

const ExportRequest = protobuf.Root.fromJSON(OTLP_DESCRIPTOR).lookupType(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
);

/** An OTLP JSON `AnyValue`. */
export type AnyValueJson = Record<string, unknown>;
export interface KeyValueJson {
  key: string;
  value: AnyValueJson;
}

/** A JS value as an OTLP JSON `AnyValue` (integers as intValue, objects as kvlists). */
export function anyValue(value: unknown): AnyValueJson {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number')
    return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValue) } };
  if (value !== null && typeof value === 'object')
    return { kvlistValue: { values: keyValues(value as Record<string, unknown>) } };
  return {};
}

export function keyValues(record: Record<string, unknown>): KeyValueJson[] {
  return Object.entries(record).map(([key, value]) => ({ key, value: anyValue(value) }));
}

export interface SpanSpec {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name?: string;
  attributes?: KeyValueJson[];
  startTimeUnixNano?: string;
  endTimeUnixNano?: string;
  [key: string]: unknown;
}

/** An OTLP JSON export request with one resource and one scope. */
export function traceRequest(
  spans: SpanSpec[],
  resource: Record<string, unknown> = { 'service.name': 'fuzz' },
) {
  return {
    resourceSpans: [
      {
        resource: { attributes: keyValues(resource) },
        scopeSpans: [
          {
            scope: { name: 'weft-test' },
            spans: spans.map((span) => ({
              name: 'op',
              kind: 1,
              startTimeUnixNano: '1700000000000000000',
              endTimeUnixNano: '1700000000100000000',
              ...span,
            })),
          },
        ],
      },
    ],
  };
}

/** Request headers and body for an OTLP JSON request. */
export function otlpJson(
  request: unknown,
  { gzip = false } = {},
): { headers: Record<string, string>; body: Buffer } {
  // Hostile values may hold bigints, which JSON spells as numbers.
  const raw = Buffer.from(
    JSON.stringify(request, (_, value) => (typeof value === 'bigint' ? Number(value) : value)),
  );
  return {
    headers: { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
    body: gzip ? gzipSync(raw) : raw,
  };
}

/** The same request as OTLP protobuf bytes (hex ids become bytes, as the proto declares them). */
export function protobufBytes(request: ReturnType<typeof traceRequest>): Buffer {
  const withByteIds = JSON.parse(JSON.stringify(request), (key, value) =>
    (key === 'traceId' || key === 'spanId' || key === 'parentSpanId') && typeof value === 'string'
      ? Buffer.from(value, 'hex').toString('base64')
      : value,
  );
  return Buffer.from(ExportRequest.encode(ExportRequest.fromObject(withByteIds)).finish());
}

export function otlpProtobuf(
  request: ReturnType<typeof traceRequest>,
  { gzip = false } = {},
): { headers: Record<string, string>; body: Buffer } {
  const raw = protobufBytes(request);
  return {
    headers: { 'content-type': 'application/x-protobuf', ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
    body: gzip ? gzipSync(raw) : raw,
  };
}

/** A trace id (32 hex) and span ids (16 hex) derived from small numbers, never zero. */
export const traceIdOf = (n: number) => `${(n + 1).toString(16).padStart(8, '0')}${'ab'.repeat(12)}`;
export const spanIdOf = (n: number) => (n + 1).toString(16).padStart(16, '0');

/** Protobuf varint bytes of `n`. */
function varint(n: number): number[] {
  const out: number[] = [];
  let rest = n;
  while (rest > 0x7f) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}

/** A length-delimited protobuf field. */
function lengthDelimited(field: number, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([(field << 3) | 2, ...varint(payload.length)]), payload]);
}

/**
 * The protobuf bytes of an `AnyValue` nested `depth` kvlists deep, built
 * without recursion (no encoder could build it: it would overflow its own
 * stack) and in linear time: every level is a prefix in front of the level
 * inside it, so the lengths are computed inside out and the prefixes joined once.
 */
export function deepAnyValueBytes(depth: number): Buffer {
  const bottom = lengthDelimited(1, Buffer.from('bottom')); // AnyValue.string_value
  const key = lengthDelimited(1, Buffer.from('k')); // KeyValue.key
  const prefixes: Buffer[] = [];
  let inner = bottom.length;
  for (let i = 0; i < depth; i++) {
    const valueField = [(2 << 3) | 2, ...varint(inner)]; // KeyValue.value
    const keyValue = key.length + valueField.length + inner;
    const valuesField = [(1 << 3) | 2, ...varint(keyValue)]; // KeyValueList.values
    const list = valuesField.length + keyValue;
    const kvlistField = [(6 << 3) | 2, ...varint(list)]; // AnyValue.kvlist_value
    prefixes.push(
      Buffer.concat([Buffer.from([...kvlistField, ...valuesField]), key, Buffer.from(valueField)]),
    );
    inner = kvlistField.length + list;
  }
  return Buffer.concat([...prefixes.reverse(), bottom]);
}

/** An export request, as protobuf bytes, whose one span has one attribute with `valueBytes` as its AnyValue. */
export function requestWithAttributeBytes(traceId: string, spanId: string, valueBytes: Buffer): Buffer {
  const attribute = Buffer.concat([lengthDelimited(1, Buffer.from('deep')), lengthDelimited(2, valueBytes)]);
  const span = Buffer.concat([
    lengthDelimited(1, Buffer.from(traceId, 'hex')),
    lengthDelimited(2, Buffer.from(spanId, 'hex')),
    lengthDelimited(5, Buffer.from('deep span')),
    lengthDelimited(9, attribute), // Span.attributes
  ]);
  const scopeSpans = lengthDelimited(2, span); // ScopeSpans.spans
  const resourceSpans = lengthDelimited(2, scopeSpans); // ResourceSpans.scope_spans
  return lengthDelimited(1, resourceSpans); // ExportTraceServiceRequest.resource_spans
}

/**
 * The bytes of an `AnyValue` holding an array of `count` empty `AnyValue`s:
 * two bytes each on the wire, one object each once decoded. Assembled on
 * the wire, so the test never holds the objects.
 */
export function emptyArrayAnyValueBytes(count: number): Buffer {
  const arrayValue = Buffer.alloc(2 * count);
  for (let i = 0; i < count; i++) arrayValue[2 * i] = (1 << 3) | 2; // ArrayValue.values, length 0
  return lengthDelimited(5, arrayValue); // AnyValue.array_value
}
