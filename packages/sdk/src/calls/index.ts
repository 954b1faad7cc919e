export { exceptionInfo } from './exception-info.js';
export { addUsage, usageOf } from './usage.js';
export type { FinishedCall, OpOptions, OpSpec, PromiseSettlers } from './op-spec.js';
export type { CallRecord, SpanHold, UsageParent } from './call-record.js';
export { dropValues } from './drop-values.js';
export { type ChunkKind, ChunkList, type StreamAccumulator } from './stream-accumulator.js';
export { namedInputs, type ParamName, parameterNames } from './input-names.js';
export { newCallId, newChildCallId, newTraceBits } from './call-id.js';
