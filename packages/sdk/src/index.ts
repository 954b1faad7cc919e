// The root entry: the tracing essentials only (at most 25 values; the API
// snapshot in api/ holds the list). Evaluation is `@weft/sdk/eval`, the error
// classes `@weft/sdk/errors`, diagnostics channels `@weft/sdk/diagnostics`, test helpers
// `@weft/sdk/testing`, outbox administration `@weft/sdk/outbox`, integrations their own.
export {
  type Diagnostics,
  feedback,
  flush,
  type FlushOptions,
  get,
  getDefaultClient,
  init,
  op,
  publish,
  setDefaultClient,
  setLabel,
  shutdown,
  type WeftClient,
  type WeftOptions,
  withFlush,
} from './client/index.js';
export type {
  ChunkKind,
  FinishedCall,
  OpOptions,
  PromiseSettlers,
  StreamAccumulator,
} from './calls/index.js';
export { type CurrentCall, currentCall, withAttributes, withSession } from './context/index.js';
export type { FeedbackInput, ObjectLabel } from '@weft/protocol';
export { hasCode, WeftError, type WeftErrorCode } from './errors/index.js';
export { type ObjectRef, WeftObject } from './objects/index.js';
export type { OpDecorator } from './op/index.js';
export type { FlushResult } from './lifecycle/index.js';
export type { WithFlushOptions } from './serverless/index.js';
export type { KeepRules, SamplingStats } from './sampling/index.js';
export type { CallPages, GetCallsOptions } from './read/index.js';
export {
  Dataset,
  type DatasetOptions,
  type FromCallsOptions,
  openDataset,
  RemoteDataset,
} from './datasets/index.js';
export { type FileInfo, type FileOptions, WeftFile } from './files/index.js';
