export {
  type SpanOwnUsage,
  spanOwnUsage,
  UNKNOWN_MODEL,
  USAGE_KEYS,
  type UsageScope,
  usageOfSpan,
  usageScopeOfSpan,
} from './gen-ai-usage.js';
export type {
  OtelAttributes,
  OtelAttributeValue,
  OtelEvent,
  OtelLink,
  OtelResource,
  OtelScope,
  OtelSpan,
  OtelSpanKind,
  OtelStatus,
} from './otel-span.js';
export { EXCEPTION_EVENT, exceptionOfSpan, STATUS_CODE_ERROR } from './span-exception.js';
export {
  msOfNanos,
  SESSION_ATTRIBUTE,
  SESSION_KEYS,
  type SpanMapping,
  type SpanToCallOptions,
  spanToCall,
} from './span-to-call.js';
export {
  callIdOfSpan,
  isValidOtelSpanId,
  isValidOtelTraceId,
  otelSpanIdOf,
  otelTraceIdOf,
  traceIdOfOtel,
} from './trace-ids.js';
