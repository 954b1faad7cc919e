/**
 * The few parts of the OpenTelemetry API the core SDK uses, read from the
 * API's own global registration instead of importing `@opentelemetry/api`:
 * `import '@weft/sdk'` never loads OpenTelemetry, and without it the bridge costs
 * one property read per call. Every `@opentelemetry/api` 1.x copy in a
 * process shares the object at `globalThis[Symbol.for('opentelemetry.js.api.1')]`
 * and keeps the registered context manager in its `context` field.
 */

/** An OpenTelemetry `Context` (immutable; `setValue` returns a new one). */
export interface OtelContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OtelContext;
  deleteValue(key: symbol): OtelContext;
}

/** An OpenTelemetry `ContextManager`, as registered by a tracer provider. */
export interface OtelContextManager {
  active(): OtelContext;
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: OtelContext,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F>;
}

/** A span's W3C identity, as `Span.spanContext()` returns it. */
export interface OtelSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
}

const API_KEY = Symbol.for('opentelemetry.js.api.1');

/**
 * The key under which the API keeps the active span in a context
 * (`createContextKey('OpenTelemetry Context Key SPAN')` is this `Symbol.for`).
 */
export const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

/** The key of `suppressTracing` (`@opentelemetry/core`): instrumentations and SDK tracers record nothing under it. */
export const SUPPRESS_TRACING_KEY = Symbol.for('OpenTelemetry SDK Context Key SUPPRESS_TRACING');

/** The registered context manager, or `undefined` when OpenTelemetry is absent or has none registered. */
export function otelContextManager(): OtelContextManager | undefined {
  const api = (globalThis as { [API_KEY]?: { context?: OtelContextManager } })[API_KEY];
  return api === undefined ? undefined : api.context;
}

/** The W3C identity of the span active in `context`, when it has a valid one. */
export function activeSpanContext(context: OtelContext): OtelSpanContext | undefined {
  const span = context.getValue(SPAN_KEY) as { spanContext?: () => OtelSpanContext } | undefined;
  if (span === undefined || typeof span.spanContext !== 'function') return undefined;
  const sc = span.spanContext();
  // The API's INVALID_SPAN_CONTEXT (all zeros) marks "no parent".
  if (sc === undefined || sc.traceId === INVALID_TRACE_ID || sc.spanId === INVALID_SPAN_ID) return undefined;
  return sc;
}

const INVALID_TRACE_ID = '00000000000000000000000000000000';
const INVALID_SPAN_ID = '0000000000000000';
