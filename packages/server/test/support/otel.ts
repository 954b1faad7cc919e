import { type Attributes, ROOT_CONTEXT, type Span, SpanKind, type Tracer, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { routes } from '@weft/protocol';

export type ExporterKind = 'protobuf' | 'json';

/** What an exporter's `export` reports (`@opentelemetry/core`'s `ExportResult`; code 0 is success). */
export interface ExportResult {
  code: number;
  error?: Error;
}
export const EXPORT_SUCCESS = 0;

/**
 * A real OTel tracer provider whose ended spans are kept in memory, so a
 * test decides when, how often and in which order they are exported.
 */
export function recordingTracer(
  resource: Attributes = { 'service.name': 'otel-test' },
  scopeVersion: string | null = '1.0.0',
): {
  tracer: Tracer;
  spans(): ReadableSpan[];
  reset(): void;
} {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes(resource),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  return {
    tracer: provider.getTracer('weft-otel-test', scopeVersion ?? undefined),
    spans: () => memory.getFinishedSpans(),
    reset: () => memory.reset(),
  };
}

/** The real OTLP/HTTP exporter of `kind` pointed at a server's `/v1/traces`. */
export function otlpExporter(
  kind: ExporterKind,
  baseUrl: string,
  options: { headers?: Record<string, string>; gzip?: boolean } = {},
): SpanExporter {
  const config = {
    url: new URL(routes.otlpTraces(), baseUrl).href,
    headers: options.headers ?? {},
    ...(options.gzip ? { compression: 'gzip' as never } : {}),
  };
  return kind === 'protobuf' ? new ProtoExporter(config) : new JsonExporter(config);
}

/** Exports `spans` once and resolves with the exporter's result. */
export function exportSpans(exporter: SpanExporter, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

export { SpanKind };

/** Starts a span as the child of `parent` (or a root), with attributes. */
export function startChild(
  tracer: Tracer,
  name: string,
  parent: Span | undefined,
  attributes: Attributes,
  kind = SpanKind.INTERNAL,
): Span {
  const context = parent === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, parent);
  return tracer.startSpan(name, { attributes, kind }, context);
}
