export { CheckpointOpenFailedError } from './checkpoint-open-failed-error.js';
export { CheckpointWriteFailedError } from './checkpoint-write-failed-error.js';
export { InvalidEvaluationOptionsError } from './invalid-evaluation-options-error.js';
export { InvalidScoreError } from './invalid-score-error.js';
export { RateLimitExhaustedError } from './rate-limit-exhausted-error.js';
export { RunNotFoundError } from './run-not-found-error.js';
export { ScorerFailedError } from './scorer-failed-error.js';
export { ScorerInputError } from './scorer-input-error.js';
