import type { OtelEvent, OtelLink, OtelResource, OtelSpan, OtelSpanKind } from '@weft/protocol';
import { InvalidRequestError } from '../errors/index.js';
import { attributesOf, isLong, textOf } from './any-value.js';

/** The spans of one `ResourceSpans`, with the resource they share. */
export interface OtlpResourceSpans {
  resource: OtelResource;
  spans: OtelSpan[];
  /** Entries of `spans` that were not span objects at all (counted as rejected). */
  malformed: number;
}

type Loose = Record<string, unknown>;

/** OTLP's `SpanKind` numbers as the kinds' names. */
export const KIND_BY_NUMBER: readonly OtelSpanKind[] = [
  'unspecified',
  'internal',
  'server',
  'client',
  'producer',
  'consumer',
];

/**
 * An OTLP `ExportTraceServiceRequest` — protobufjs' decoded message or OTLP
 * JSON — as neutral spans grouped by resource. Ids become lowercase hex
 * (protobuf bytes; JSON hex, or base64 from a strict proto3-JSON encoder),
 * 64-bit times decimal strings, enums their names. Only a body that is not
 * a request at all is refused (400); a span that is not an object is
 * counted, and a span with bad ids or times is left for the mapping to reject.
 */
export function spansOfOtlp(request: unknown): OtlpResourceSpans[] {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw invalid('', 'an OTLP ExportTraceServiceRequest must be an object with `resourceSpans`');
  }
  const resourceSpans = (request as Loose).resourceSpans ?? [];
  if (!Array.isArray(resourceSpans)) throw invalid('resourceSpans', 'must be an array');
  return resourceSpans.map((entry, i) => {
    if (typeof entry !== 'object' || entry === null) throw invalid(`resourceSpans.${i}`, 'must be an object');
    const resource: OtelResource = { attributes: attributesOf(field(entry, 'resource')?.attributes) };
    const spans: OtelSpan[] = [];
    let malformed = 0;
    for (const scopeSpans of list(entry, 'scopeSpans')) {
      const scope = field(scopeSpans, 'scope');
      for (const span of list(scopeSpans, 'spans')) {
        if (typeof span !== 'object' || span === null || Array.isArray(span)) malformed++;
        else spans.push(spanOf(span as Loose, scope));
      }
    }
    return { resource, spans, malformed };
  });
}

function spanOf(span: Loose, scope: Loose | undefined): OtelSpan {
  const scopeName = typeof scope?.name === 'string' ? scope.name : '';
  // Protobuf cannot tell an empty string from an absent one (proto3's
  // default), so an empty version is no version, as in OTLP JSON.
  const scopeVersion = typeof scope?.version === 'string' && scope.version !== '' ? scope.version : undefined;
  return {
    traceId: idOf(span.traceId),
    spanId: idOf(span.spanId),
    parentSpanId: idOf(span.parentSpanId),
    name: typeof span.name === 'string' ? span.name : '',
    kind: kindOf(span.kind),
    startTimeUnixNano: nanosOf(span.startTimeUnixNano),
    endTimeUnixNano: nanosOf(span.endTimeUnixNano),
    attributes: attributesOf(span.attributes),
    events: list(span, 'events').map(eventOf),
    links: list(span, 'links').map(linkOf),
    status: statusOf(field(span, 'status')),
    ...(scopeName === ''
      ? {}
      : {
          scope: { name: scopeName, version: scopeVersion },
        }),
  };
}

function eventOf(event: unknown): OtelEvent {
  const e = (typeof event === 'object' && event !== null ? event : {}) as Loose;
  return {
    name: typeof e.name === 'string' ? e.name : '',
    timeUnixNano: nanosOf(e.timeUnixNano),
    attributes: attributesOf(e.attributes),
  };
}

function linkOf(link: unknown): OtelLink {
  const l = (typeof link === 'object' && link !== null ? link : {}) as Loose;
  return { traceId: idOf(l.traceId), spanId: idOf(l.spanId), attributes: attributesOf(l.attributes) };
}

function statusOf(status: Loose | undefined): OtelSpan['status'] {
  if (status === undefined) return undefined;
  const code =
    status.code === 'STATUS_CODE_ERROR'
      ? 2
      : status.code === 'STATUS_CODE_OK'
        ? 1
        : Number(textOf(status.code ?? 0));
  return {
    code: Number.isInteger(code) ? code : 0,
    message: typeof status.message === 'string' ? status.message : undefined,
  };
}

function kindOf(kind: unknown): OtelSpanKind | undefined {
  if (typeof kind === 'string') {
    const name = kind.replace(/^SPAN_KIND_/, '').toLowerCase();
    return (KIND_BY_NUMBER as readonly string[]).includes(name) ? (name as OtelSpanKind) : undefined;
  }
  return typeof kind === 'number' ? KIND_BY_NUMBER[kind] : undefined;
}

/** A fixed64 (protobufjs `Long`, JSON number or decimal string) as a decimal string; absent is 0. */
function nanosOf(value: unknown): string {
  if (value === undefined || value === null) return '0';
  // A bigint of the Long's 32-bit halves formats natively; `Long.toString` divides in JavaScript.
  if (isLong(value) && value.unsigned)
    return String((BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0));
  return textOf(value);
}

/**
 * An id as lowercase hex: protobuf bytes, OTLP JSON's hex, or base64 (which
 * the proto3 JSON mapping would use). Anything else is kept as given, for the
 * mapping to reject with its value in the message.
 */
function idOf(value: unknown): string {
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
  if (typeof value !== 'string') return '';
  if (/^[0-9a-fA-F]*$/.test(value) && (value.length === 32 || value.length === 16 || value.length === 0)) {
    return value.toLowerCase();
  }
  if (/^[A-Za-z0-9+/]{11,22}={0,2}$/.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length === 16 || bytes.length === 8) return bytes.toString('hex');
  }
  return value;
}

function field(value: unknown, key: string): Loose | undefined {
  const child = typeof value === 'object' && value !== null ? (value as Loose)[key] : undefined;
  return typeof child === 'object' && child !== null && !Array.isArray(child) ? (child as Loose) : undefined;
}

function list(value: unknown, key: string): unknown[] {
  const child = typeof value === 'object' && value !== null ? (value as Loose)[key] : undefined;
  return Array.isArray(child) ? child : [];
}

function invalid(path: string, message: string): InvalidRequestError {
  return new InvalidRequestError([{ path, message }], 'body');
}
