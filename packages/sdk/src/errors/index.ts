export { hasCode, WEFT_ERROR_CODES, WeftError, type WeftErrorCode } from '@weft/protocol';
export { ClientClosedError } from './client-closed-error.js';
export { describeOptionValue } from './describe-option-value.js';
export { InvalidClientError } from './invalid-client-error.js';
export { InvalidOptionsError } from './invalid-options-error.js';
export { NotInitializedError } from './not-initialized-error.js';
export { firstOptionIssue, type OptionIssue, optionIssue, optionIssues } from './option-issue.js';
export { PublishFailedError } from './publish-failed-error.js';
export { StreamAbandonedError } from './stream-abandoned-error.js';
