export type { EndedSpan } from '../op/index.js';
export { SpanFlushIncompleteError } from './span-flush-incomplete-error.js';
export { type OtelIds, otelIdsOf } from './otel-ids.js';
export { WeftSpanProcessor, type WeftSpanProcessorOptions } from './weft-span-processor.js';
