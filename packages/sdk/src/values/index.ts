export {
  DEFAULT_REDACTED_ENDINGS,
  normalizeKeyName,
  REDACTED,
  Sanitizer,
  type SanitizeOptions,
  sanitize,
} from './sanitize.js';
export { type SnapshotLimits, snapshot, snapshotTape } from './snapshot.js';
export { type OutputRules, releaseSnapshot, snapshotOutput } from './output-encoder.js';
export { encodeIfSafe, encodeRecordIfSafe, releaseEncoded } from './safe-encoder.js';
export type { WrittenValueHook } from './written-value-hook.js';
export { DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES, MAX_DEPTH_LIMIT } from './value-limits.js';
export { materialize, snapshotBytes } from './snapshot-tape.js';
export {
  freeTextRedaction,
  redactException,
  scrubStrings,
  isNoRedaction,
  redactedStringsOf,
  redactText,
} from './free-text.js';
export { asBinary } from './binary.js';
export { errorName } from './error-name.js';
