export {
  callIdOfSpan,
  isValidOtelSpanId,
  isValidOtelTraceId,
  otelSpanIdOf,
  otelTraceIdOf,
  traceIdOfOtel,
} from './trace-ids.js';
