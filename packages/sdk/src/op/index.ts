export { makeOp, type OpDecorator } from './op.js';
export { Tracer } from './tracer.js';
export { WeftCallSpan } from './weft-call-span.js';
export type { EndedSpan } from './ended-span.js';
export type { CallInterceptor, Interception } from './call-interceptor.js';
