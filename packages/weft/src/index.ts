export { feedback, flush, get, op, publish, setLabel, shutdown, withFlush } from './client/default-functions.js';
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
export { InvalidFeedbackError } from './feedback/index.js';
export type { FeedbackInput, ObjectLabel } from '@weft/protocol';
export { PROBLEM_CHANNEL, type PipelineProblem } from './diagnostics/warnings.js';
export {
  ClientClosedError,
  InvalidClientError,
  InvalidOptionsError,
  NotInitializedError,
  PublishFailedError,
  StreamAbandonedError,
  WeftError,
} from './errors/index.js';
export { EXIT_CHANNEL } from './lifecycle/exit-hooks.js';
export type { ObjectRef } from './objects/object-ref.js';
export { WeftObject, WeftObject as Object } from './objects/weft-object.js';
export type { OpDecorator } from './op/op.js';
export type { FlushResult } from './pipeline/flush-barrier.js';
export type { WithFlushOptions } from './serverless/index.js';
export type { KeepRules, SamplingStats } from './sampling/index.js';
export type { CallPages, GetCallsOptions } from './read/call-pages.js';
export { Dataset, type DatasetOptions, type FromCallsOptions, openDataset, RemoteDataset } from './datasets/index.js';
export {
  FILE_CHANNEL,
  type FileInfo,
  type FileOptions,
  FileUnreadableError,
  FileUploadFailedError,
  WeftFile,
  WeftFile as File,
} from './files/index.js';
export {
  compareRuns,
  type EvaluateOptions,
  Evaluation,
  type EvaluationOptions,
  loadRun,
  Model,
  type Scorer,
  scorers,
} from './eval/index.js';
