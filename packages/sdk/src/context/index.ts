export { callContext, type ContextFrame, outsideCalls, type RemoteParent } from './call-context.js';
export { type CurrentCall, currentCall } from './current-call.js';
export { withAttributes } from './with-attributes.js';
export { withSession } from './with-session.js';
export {
  currentRemoteParent,
  parseTraceparent,
  traceparentOf,
  withRemoteParent,
} from './remote-parent.js';
export {
  activeSpanContext,
  type OtelContext,
  type OtelContextManager,
  otelContextManager,
  type OtelSpanContext,
  SPAN_KEY,
} from './otel-global.js';
