import type { OtelAttributes, OtelResource, OtelSpan, OtelSpanKind } from '@weft/protocol';

/** `[seconds, nanoseconds]`, OpenTelemetry JS's `HrTime`. */
type HrTime = readonly [number, number];

/**
 * The parts of an OpenTelemetry JS `ReadableSpan` (sdk-trace-base 1.x and
 * 2.x) the span processor reads. Declared here, structurally, so `@weft/sdk/otel`
 * needs no OpenTelemetry package at runtime nor in its types; a
 * `ReadableSpan` is assignable to it.
 */
export interface EndedSpan {
  readonly name: string;
  readonly kind: number;
  spanContext(): { traceId: string; spanId: string; traceFlags: number };
  /** sdk-trace-base 2.x. */
  readonly parentSpanContext?: { spanId: string } | undefined;
  /** sdk-trace-base 1.x. */
  readonly parentSpanId?: string | undefined;
  readonly startTime: HrTime;
  readonly endTime: HrTime;
  readonly status: { code: number; message?: string | undefined };
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly events: readonly {
    name: string;
    time: HrTime;
    attributes?: Readonly<Record<string, unknown>> | undefined;
  }[];
  readonly resource: { readonly attributes: Readonly<Record<string, unknown>> };
  readonly links?:
    | readonly {
        context: { traceId: string; spanId: string };
        attributes?: Readonly<Record<string, unknown>> | undefined;
      }[]
    | undefined;
  /** sdk-trace-base 2.x (`instrumentationLibrary` in 1.x). */
  readonly instrumentationScope?: { name: string; version?: string | undefined } | undefined;
  readonly instrumentationLibrary?: { name: string; version?: string | undefined } | undefined;
}

/** The API's `SpanKind` numbers (INTERNAL = 0 …), which differ from OTLP's. */
const KINDS: readonly OtelSpanKind[] = ['internal', 'server', 'client', 'producer', 'consumer'];

function nanos(time: HrTime): bigint {
  return BigInt(time[0]) * 1_000_000_000n + BigInt(time[1]);
}

/**
 * An ended span in the shape `@weft/protocol`'s `spanToCall` reads (the same
 * one the server fills from OTLP), so the SDK and the server map spans alike.
 * Runs in the pipeline's pool, never on the caller's turn.
 */
export function otelSpanOf(span: EndedSpan): OtelSpan {
  const sc = span.spanContext();
  const scope = span.instrumentationScope ?? span.instrumentationLibrary;
  return {
    traceId: sc.traceId,
    spanId: sc.spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? span.parentSpanId,
    name: span.name,
    kind: KINDS[span.kind] ?? 'unspecified',
    startTimeUnixNano: nanos(span.startTime),
    endTimeUnixNano: nanos(span.endTime),
    attributes: span.attributes as OtelAttributes,
    events: span.events.map((event) => ({
      name: event.name,
      timeUnixNano: nanos(event.time),
      attributes: (event.attributes ?? {}) as OtelAttributes,
    })),
    links: span.links?.map((link) => ({
      traceId: link.context.traceId,
      spanId: link.context.spanId,
      attributes: (link.attributes ?? {}) as OtelAttributes,
    })),
    status: { code: span.status.code, message: span.status.message },
    scope: scope === undefined ? undefined : { name: scope.name, version: scope.version },
  };
}

/** The span's resource in the shape `spanToCall` reads. */
export function otelResourceOf(span: EndedSpan): OtelResource {
  return { attributes: span.resource.attributes as OtelAttributes };
}
