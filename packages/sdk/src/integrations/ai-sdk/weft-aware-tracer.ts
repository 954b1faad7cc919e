import { type Context, context, type Span, type SpanOptions, type Tracer, trace } from '@opentelemetry/api';
import { callContext } from '../../context/index.js';
import { WeftCallSpan } from '../../op/index.js';

/**
 * A tracer whose spans find their Weft parent even when the OTel context
 * does not carry it: a Weft op that started before any OTel context manager
 * was registered (the first `weftTelemetry()` registers one) has no
 * `WeftCallSpan` in the context, so its AI SDK spans would start new traces.
 * When the context has no span, the running Weft call (AsyncLocalStorage) is
 * the parent.
 */
export class WeftAwareTracer implements Tracer {
  readonly #inner: Tracer;

  constructor(inner: Tracer) {
    this.#inner = inner;
  }

  startSpan(name: string, options?: SpanOptions, ctx: Context = context.active()): Span {
    return this.#inner.startSpan(name, options, withWeftParent(ctx));
  }

  // The API's three overloads: (name, fn), (name, options, fn), (name, options, context, fn).
  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    ctx: Context,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    a: SpanOptions | F,
    b?: Context | F,
    c?: F,
  ): ReturnType<F> {
    const fn = (c ?? (typeof b === 'function' ? b : a)) as (span: Span) => ReturnType<F>;
    const options = typeof a === 'function' ? undefined : a;
    const parent = b !== undefined && typeof b !== 'function' ? b : context.active();
    const span = this.startSpan(name, options, parent);
    return context.with(trace.setSpan(withWeftParent(parent), span), fn, undefined, span);
  }
}

function withWeftParent(ctx: Context): Context {
  if (trace.getSpan(ctx) !== undefined) return ctx;
  const call = callContext.getStore()?.call;
  return call === undefined || call.endedAt !== undefined
    ? ctx
    : trace.setSpan(ctx, new WeftCallSpan(call) as unknown as Span);
}
