import type { ExceptionInfo } from '../schemas/index.js';
import type { OtelEvent, OtelSpan } from './otel-span.js';

/** OTLP `STATUS_CODE_ERROR` (and the OTel API's `SpanStatusCode.ERROR`). */
export const STATUS_CODE_ERROR = 2;
/** The span event the OTel API's `recordException` adds. */
export const EXCEPTION_EVENT = 'exception';

/**
 * The exception of a failed span: the last `exception` event
 * (`exception.type` → name, `exception.message`, `exception.stacktrace` →
 * stack), else the status message. `undefined` unless the status is ERROR —
 * a span that recorded an exception and went on to succeed handled it, and
 * its event stays visible under `otel.events`.
 */
export function exceptionOfSpan(span: Pick<OtelSpan, 'status' | 'events'>): ExceptionInfo | undefined {
  if (span.status?.code !== STATUS_CODE_ERROR) return undefined;
  const event = [...(span.events ?? [])].reverse().find((candidate) => candidate.name === EXCEPTION_EVENT);
  const statusMessage = span.status.message ?? '';
  if (event === undefined) return { name: 'Error', message: statusMessage };
  return {
    name: text(event, 'exception.type') ?? 'Error',
    message: text(event, 'exception.message') ?? statusMessage,
    ...(text(event, 'exception.stacktrace') === undefined
      ? {}
      : { stack: text(event, 'exception.stacktrace') }),
  };
}

function text(event: OtelEvent, key: string): string | undefined {
  const value = event.attributes[key];
  if (value === undefined || value === null) return undefined;
  // `exception.type` is at most 1,000 characters in a Weft call.
  const asText = typeof value === 'string' ? value : JSON.stringify(value);
  return key === 'exception.type' ? asText.slice(0, 1_000) : asText;
}
