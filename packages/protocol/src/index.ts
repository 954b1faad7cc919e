export {
  arrayDigest,
  canonicalJson,
  digestBytes,
  digestValue,
  MAX_CANONICAL_DEPTH,
  nextArrayDigest,
  tableDigest,
} from './digest/index.js';
export { InvalidRefError, NotCanonicalError, WeftError, type WeftErrorOptions } from './errors/index.js';
export {
  CALL_ID,
  DIGEST,
  formatRef,
  isRefUri,
  OBJECT_NAME,
  PROJECT_NAME,
  parseRef,
  type Ref,
} from './refs/index.js';
export {
  callIdOfSpan,
  isValidOtelSpanId,
  isValidOtelTraceId,
  msOfNanos,
  type OtelAttributes,
  type OtelAttributeValue,
  type OtelEvent,
  type OtelResource,
  type OtelScope,
  type OtelSpan,
  type OtelSpanKind,
  type OtelStatus,
  otelSpanIdOf,
  otelTraceIdOf,
  SESSION_ATTRIBUTE,
  type SpanMapping,
  type SpanToCallOptions,
  spanToCall,
  traceIdOfOtel,
} from './otel/index.js';
export {
  costOfUsage,
  formatUsd,
  findModelPrice,
  type ModelPrice,
  PRICE_TABLE,
  PRICE_TABLE_SOURCE,
  PRICE_TABLE_TAKEN_ON,
  type PriceOverrides,
  priceUsage,
  roundUsd,
  totalCostUsd,
} from './pricing/index.js';
export * from './schemas/index.js';
export {
  CONTENT_TYPE_JSON,
  CONTENT_TYPE_MSGPACK,
  CONTENT_TYPE_OCTET_STREAM,
  DEFAULT_PORT,
  DEFAULT_URL,
  decodeMsgpack,
  encodeMsgpack,
  PROTOCOL_VERSION,
  routes,
} from './wire/index.js';
export { collectValueRefs, expandValueRefs, isValueRef, type ValueRef, valueRef } from './values/index.js';
