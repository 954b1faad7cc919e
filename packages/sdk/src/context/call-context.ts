import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallRecord } from '../calls/index.js';
import { type OtelContext, otelContextManager, SPAN_KEY, SUPPRESS_TRACING_KEY } from './otel-global.js';

/**
 * What AsyncLocalStorage carries through the user's code: the call that is
 * running (the parent of any op called now) and attributes set by
 * `withAttributes`. One store per process, shared by every client, so a
 * `withAttributes` block applies whichever client traces inside it.
 */
export interface ContextFrame {
  readonly call: CallRecord | undefined;
  readonly attributes: Readonly<Record<string, unknown>> | undefined;
  /**
   * The OpenTelemetry context the call made active (its `WeftCallSpan`), when
   * OpenTelemetry is registered: while it is still the active one, the Weft
   * call is the innermost span; otherwise an OTel span started inside it is.
   */
  readonly otel?: OtelContext | undefined;
  /**
   * Set inside a trace that client (the owner object) sampled out: its ops
   * called here run untraced, so a trace is recorded whole or not at all.
   */
  readonly unsampledBy?: object | undefined;
  /** Set by `withSession`: the session every call started inside belongs to. */
  readonly sessionId?: string | undefined;
  /**
   * Set by `withRemoteParent`: the span of another process (a request's W3C
   * trace context) that a call started here with no Weft parent goes under.
   * Carried into calls started inside, so their outgoing requests pass its
   * `tracestate` on.
   */
  readonly remoteParent?: RemoteParent | undefined;
}

/**
 * A span of another process that calls started here belong under: the W3C
 * trace context a request carried (an HTTP `traceparent` header, an MCP
 * request's `_meta.traceparent`), in Weft ids.
 */
export interface RemoteParent {
  /** The Weft trace id of the W3C trace id. */
  readonly traceId: string;
  /** The Weft call id of the W3C parent span id (see `callIdOfSpan`). */
  readonly parentId: string;
  /** The `tracestate` that came with it, passed on unchanged by outgoing requests. */
  readonly traceState?: string | undefined;
}

export const callContext = new AsyncLocalStorage<ContextFrame>();

/**
 * Runs `fn` outside any call's context, so work the SDK starts (pool tasks,
 * timers, HTTP) neither inherits nor retains the caller's frame. With
 * OpenTelemetry registered, also outside the caller's active span and with
 * tracing suppressed (as OTel exporters do): an HTTP instrumentation must not
 * record the SDK's own requests — through `WeftSpanProcessor` they would come
 * back as calls and feed themselves.
 */
export function outsideCalls<T>(fn: () => T): T {
  const otel = otelContextManager();
  if (otel === undefined) return withoutFrame(fn);
  let quiet: OtelContext;
  try {
    quiet = otel.active().deleteValue(SPAN_KEY).setValue(SUPPRESS_TRACING_KEY, true);
  } catch {
    return withoutFrame(fn);
  }
  return withoutFrame(() => otel.with(quiet, fn));
}

/**
 * `fn` with no frame as the store: what it schedules captures none.
 * `run(undefined)` rather than `exit()`: on Node 20, `exit` disables the
 * storage and enables it again, which re-installs the promise hooks — 6–18 µs
 * a time on a loaded machine, paid by the pipeline once per traced call that
 * ends after a turn (bench/sdk-tracing.mjs), where `run` sets a field and
 * restores it (0.05–3 µs, setImmediate included).
 */
function withoutFrame<T>(fn: () => T): T {
  return callContext.run(undefined as unknown as ContextFrame, fn);
}
