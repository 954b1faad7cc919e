// `@weft/sdk/errors`: every error class the SDK throws, for `instanceof` checks.
// Each has a stable `code` (the `WeftErrorCode` union; see docs/errors.md);
// `hasCode(error, code)` checks it, across duplicated copies of the package.
export {
  ClientClosedError,
  hasCode,
  InvalidClientError,
  InvalidOptionsError,
  NotInitializedError,
  PublishFailedError,
  StreamAbandonedError,
  WEFT_ERROR_CODES,
  WeftError,
  type WeftErrorCode,
} from './errors/index.js';
export {
  DatasetParseError,
  InvalidDatasetOptionsError,
  InvalidDatasetRowsError,
  InvalidDatasetSourceError,
} from './datasets/index.js';
export { InvalidFeedbackError } from './feedback/index.js';
export { FileUnreadableError, FileUploadFailedError, InvalidFileError } from './files/index.js';
export {
  CheckpointOpenFailedError,
  CheckpointWriteFailedError,
  InvalidEvaluationOptionsError,
  InvalidScoreError,
  RateLimitExhaustedError,
  RunNotFoundError,
  ScorerFailedError,
  ScorerInputError,
} from './eval/index.js';
export { RecordedError, ReplayDivergenceError, ReplayNotFoundError } from './replay/index.js';
