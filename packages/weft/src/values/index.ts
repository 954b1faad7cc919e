export { DEFAULT_REDACT_KEYS, REDACTED, Sanitizer, type SanitizeOptions, sanitize } from './sanitize.js';
export { type SnapshotLimits, snapshot, snapshotTape } from './snapshot.js';
export type { WrittenValueHook } from './safe-encoder.js';
export { DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES, MAX_DEPTH_LIMIT } from './value-limits.js';
