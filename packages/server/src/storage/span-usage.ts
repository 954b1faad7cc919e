import type { CallComplete, ModelUsage, UsageScope } from '@weft/protocol';

/** A call made from an OTLP span, with what storage needs to roll usage up its trace. */
export interface SpanCallPut {
  /** The mapped call; its `summary.usage` is the span's OWN usage. */
  call: CallComplete;
  /** Whether that own usage already totals the model calls beneath the span (`spanToCall`'s `usageScope`). */
  usageScope: UsageScope;
}

/**
 * What storage keeps of a span's own usage, apart from the call's summary
 * (which holds the rolled-up totals). A call without it was recorded by the
 * SDK, whose summary already totals its own descendants.
 */
export interface SpanUsage {
  scope: UsageScope;
  usage?: Record<string, ModelUsage>;
}

/** A span call's own usage, as the mapping gave it. */
export function spanUsageOf({ call, usageScope }: SpanCallPut): SpanUsage {
  const usage = call.summary?.usage;
  return usage === undefined ? { scope: usageScope } : { scope: usageScope, usage };
}

/** The stored form (JSON text) of a span call's own usage. */
export function encodeSpanUsage(span: SpanCallPut): string {
  return JSON.stringify(spanUsageOf(span));
}

/** Reads {@link encodeSpanUsage}'s text; NULL or empty (a call the SDK recorded) gives `undefined`. */
export function decodeSpanUsage(text: string | null): SpanUsage | undefined {
  return text === null || text === '' ? undefined : (JSON.parse(text) as SpanUsage);
}
