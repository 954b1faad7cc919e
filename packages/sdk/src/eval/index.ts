export {
  Checkpoint,
  type CheckpointAppendResult,
  type CheckpointOptions,
  type CheckpointResumeState,
} from './checkpoint.js';
export {
  type ChangedRow,
  type CompareOptions,
  compareRuns,
  type RunComparison,
  type ScoreComparison,
} from './compare.js';
export {
  CheckpointOpenFailedError,
  CheckpointWriteFailedError,
  InvalidEvaluationOptionsError,
  InvalidScoreError,
  RateLimitExhaustedError,
  RunNotFoundError,
  ScorerFailedError,
  ScorerInputError,
} from './errors/index.js';
export {
  type EvaluateOptions,
  Evaluation,
  type EvaluationDataset,
  type EvaluationOptions,
  type EvaluationRunInfo,
} from './evaluation.js';
export { changedRowCells, type FormatComparisonOptions, formatComparison } from './format-comparison.js';
export { formatSummary } from './format-summary.js';
export { type LoadedRun, loadRun, type RunSource } from './load-run.js';
export { Model, type ModelLike, type PredictContext } from './model.js';
export type { RateLimitOptions } from './rate-limit.js';
export { rateLimitOf } from './rate-limit-of.js';
export type { RowResult } from './row-result.js';
export type { Scorer, ScorerArgs } from './scorer.js';
export * as scorers from './scorers.js';
export { type SummaryContext, summarize } from './summary.js';
