export { callContext, type ContextFrame, outsideCalls } from './call-context.js';
export { type CurrentCall, currentCall } from './current-call.js';
export { withAttributes } from './with-attributes.js';
export { withSession } from './with-session.js';
export {
  activeSpanContext,
  type OtelContext,
  type OtelContextManager,
  otelContextManager,
  type OtelSpanContext,
  SPAN_KEY,
} from './otel-global.js';
