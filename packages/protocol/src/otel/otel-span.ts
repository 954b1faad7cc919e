/**
 * A span as the GenAI mapping reads it: OTLP's `Span` after decoding, with no
 * OpenTelemetry package behind it, so the server (decoding OTLP/HTTP) and the
 * SDK (reading a `ReadableSpan` in its span processor) feed one mapping.
 *
 * How to fill it from the two sources:
 *
 * | field               | OTLP (protobuf or JSON)                     | OTel JS `ReadableSpan`                         |
 * | ------------------- | ------------------------------------------- | ---------------------------------------------- |
 * | `traceId`, `spanId` | bytes / hex → 32 / 16 lowercase hex digits  | `spanContext().traceId`, `.spanId`             |
 * | `parentSpanId`      | bytes / hex; empty for a root               | `parentSpanContext?.spanId` (or `parentSpanId`) |
 * | `kind`              | `SpanKind` number → name (`SPAN_KIND_CLIENT` → `client`) | `SpanKind` enum → name (the numbers differ!) |
 * | `*TimeUnixNano`     | fixed64 → `bigint` or a decimal string      | `HrTime` [s, ns] → `bigint`                    |
 * | `attributes`        | `KeyValue[]` → record, `AnyValue` decoded   | `attributes` as they are                       |
 * | `status.code`       | `StatusCode`: 0 unset, 1 ok, 2 error        | `SpanStatusCode`: the same numbers             |
 * | `links`             | `Link[]`: ids as above, attributes decoded  | `links`: `context.traceId`, `.spanId`, `attributes` |
 */
export interface OtelSpan {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** 16 lowercase hex digits; empty, absent or all zeros for a root span. */
  parentSpanId?: string | undefined;
  name: string;
  kind?: OtelSpanKind | undefined;
  /** Nanoseconds since the Unix epoch, as a `bigint` or a decimal string (OTLP JSON spells fixed64 so). */
  startTimeUnixNano: bigint | string;
  endTimeUnixNano: bigint | string;
  attributes: OtelAttributes;
  events?: readonly OtelEvent[] | undefined;
  status?: OtelStatus | undefined;
  /** The instrumentation scope (library) that made the span. */
  scope?: OtelScope | undefined;
  /** Spans this one is causally related to (a batch's inputs, a message's producer), in this trace or another. */
  links?: readonly OtelLink[] | undefined;
}

/** OTLP's span kinds by name (`SPAN_KIND_CLIENT` → `client`). */
export type OtelSpanKind = 'unspecified' | 'internal' | 'server' | 'client' | 'producer' | 'consumer';

/**
 * An attribute value with OTLP's `AnyValue` decoded to JS: strings, numbers
 * (an int64 beyond `Number.MAX_SAFE_INTEGER` as its decimal string), booleans,
 * arrays (`arrayValue`, possibly of mixed kinds), plain objects (`kvlistValue`),
 * base64 strings for `bytesValue`, `null` for an empty `AnyValue`.
 */
export type OtelAttributeValue =
  | string
  | number
  | boolean
  | null
  | readonly OtelAttributeValue[]
  | { readonly [key: string]: OtelAttributeValue };

/** Flat attribute keys (`gen_ai.request.model`) to decoded values; `undefined` entries are skipped. */
export type OtelAttributes = Readonly<Record<string, OtelAttributeValue | undefined>>;

/** A span event (`exception`, `gen_ai.user.message`, …). */
export interface OtelEvent {
  name: string;
  timeUnixNano: bigint | string;
  attributes: OtelAttributes;
}

/** `code`: 0 unset, 1 ok, 2 error (OTLP `StatusCode` and the OTel API's `SpanStatusCode` agree). */
export interface OtelStatus {
  code: number;
  message?: string | undefined;
}

/** A link to another span: W3C ids as lowercase hex, like the span's own. */
export interface OtelLink {
  traceId: string;
  spanId: string;
  attributes: OtelAttributes;
}

export interface OtelScope {
  name: string;
  version?: string | undefined;
}

/** The resource of a batch of spans: `service.name`, `weft.project`, … */
export interface OtelResource {
  attributes: OtelAttributes;
}
