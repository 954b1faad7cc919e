export {
  type CallFacts,
  type EndFacts,
  latencyOf,
  mergeFacts,
  type ModelFacts,
  NO_FACTS,
  nanoUsd,
  sameFacts,
  type StartFacts,
  withSummary,
} from './call-facts.js';
export {
  addHistogram,
  addToBin,
  binOf,
  type LogHistogram,
  QUANTILE_RELATIVE_ERROR,
  quantileOf,
  quantilesOf,
  valueOfBin,
  ZERO_BIN,
} from './log-histogram.js';
export {
  type CallContribution,
  type CallRollupChange,
  callContribution,
  type FeedbackFact,
  type FeedbackRollupChange,
  feedbackValues,
  modelValues,
  RollupDelta,
} from './rollup-delta.js';
export {
  ALL_OPS,
  type CallRollupKey,
  CUTS,
  type CutKind,
  type FeedbackRollupKey,
  LEVEL_MS,
  levelStart,
  type RollupLevel,
  type RollupStatus,
} from './rollup-keys.js';
export {
  type CallRollupRow,
  type CompletedCalls,
  type FeedbackRollupRead,
  type FeedbackRollupRow,
  joinedRanges,
  type RollupHistogram,
  type RollupOps,
  type RollupRead,
} from './rollup-read.js';
export {
  addCallValues,
  addFeedbackValues,
  CALL_SUMS,
  type CallRollupValues,
  type CallSum,
  distributionKey,
  emptyCallValues,
  emptyFeedbackValues,
  type FeedbackRollupValues,
  isZeroCallValues,
  isZeroFeedbackValues,
} from './rollup-values.js';
export { KeyedQueue } from './keyed-queue.js';
export { BatchRollup, type FactsWrite, forgetDelta, type StoredFacts } from './batch-rollup.js';
