import { context, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { WeftClient } from '../../client/index.js';
import { WeftSpanProcessor } from '../../otel/index.js';
import { WeftAwareTracer } from './weft-aware-tracer.js';

/** Tracers by client (`undefined`: the default client when each span ends). */
const tracers = new Map<WeftClient | undefined, Tracer>();

/**
 * The OpenTelemetry tracer the AI SDK's telemetry writes to: a tracer
 * provider of its own (not registered globally, so the app's other spans and
 * exporters are untouched) whose only processor is `WeftSpanProcessor`, so
 * the AI SDK's spans become Weft calls through Weft's pipeline.
 *
 * The AI SDK nests its spans through the global OTel context; when the app
 * has not registered a context manager, an AsyncLocalStorage one is
 * registered here (without one every span would be a root).
 */
export function weftTracer(client?: WeftClient): Tracer {
  let tracer = tracers.get(client);
  if (tracer === undefined) {
    // Returns false (and changes nothing) when the app registered its own.
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const provider = new BasicTracerProvider({
      spanProcessors: [new WeftSpanProcessor(client === undefined ? {} : { client })],
    });
    tracer = new WeftAwareTracer(provider.getTracer('weft.ai-sdk'));
    tracers.set(client, tracer);
  }
  return tracer;
}
