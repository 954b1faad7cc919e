// The root entry: the tracing essentials only (at most 25 values; the API
// snapshot in api/ holds the list). Evaluation is `weft/eval`, the error
// classes `weft/errors`, diagnostics channels `weft/diagnostics`, test helpers
// `weft/testing`, outbox administration `weft/outbox`, integrations their own.
export {
  feedback,
  flush,
  get,
  op,
  publish,
  setLabel,
  shutdown,
  withFlush,
} from './client/default-functions.js';
export {
  type Diagnostics,
  type FlushOptions,
  getDefaultClient,
  init,
  setDefaultClient,
  type WeftClient,
  type WeftOptions,
} from './client/index.js';
export type { FinishedCall, OpOptions, PromiseSettlers } from './calls/op-spec.js';
export type { ChunkKind, StreamAccumulator } from './op/stream-accumulator.js';
export { type CurrentCall, currentCall, withAttributes, withSession } from './context/index.js';
export type { FeedbackInput, ObjectLabel } from '@weft/protocol';
export { WeftError } from './errors/index.js';
export type { WeftErrorCode } from './errors/index.js';
export type { ObjectRef } from './objects/index.js';
export { WeftObject } from './objects/index.js';
export type { OpDecorator } from './op/op.js';
export type { FlushResult } from './pipeline/flush-barrier.js';
export type { WithFlushOptions } from './serverless/index.js';
export type { KeepRules, SamplingStats } from './sampling/index.js';
export type { CallPages, GetCallsOptions } from './read/index.js';
export {
  Dataset,
  type DatasetHost,
  type DatasetOptions,
  type FromCallsOptions,
  openDataset,
  RemoteDataset,
} from './datasets/index.js';
export { type FileInfo, type FileOptions, WeftFile } from './files/index.js';
