import { otelSpanIdOf, otelTraceIdOf } from '@weft/protocol';

/** A Weft call's W3C trace context ids. */
export interface OtelIds {
  /** 32 lowercase hex digits: the call's trace id without dashes. */
  traceId: string;
  /** 16 lowercase hex digits: the last 8 bytes of the call id. */
  spanId: string;
}

/**
 * The W3C trace and span ids of a Weft call (e.g. `weft.currentCall()`), to
 * correlate it with the rest of a distributed trace (logs, a `traceparent`
 * header). Every Weft call carries them in its ids by construction: its trace
 * id is the W3C trace id, and its id ends with its span id.
 */
export function otelIdsOf(call: { readonly id: string; readonly traceId: string }): OtelIds {
  return { traceId: otelTraceIdOf(call.traceId), spanId: otelSpanIdOf(call.id) };
}
