export {
  InvalidOutboxOptionsError,
  OutboxClosedError,
  OutboxInvalidRecordError,
  OutboxLockedError,
  OutboxOpenFailedError,
  OutboxReadFailedError,
  OutboxUnavailableError,
  OutboxWriteFailedError,
} from './errors/index.js';
export { Outbox, type ReplayResult, type ReplaySend } from './outbox.js';
export type { OutboxStats } from './outbox-stats.js';
export { type OutboxFileHandle, type OutboxFileSystem, nodeOutboxFileSystem } from './outbox-file-system.js';
export type { OutboxFsyncPolicy, OutboxOptions, ReplayOptions } from './outbox-options.js';
export { type KeeperWarnings, OutboxKeeper, type OutboxKeeperOptions } from './outbox-keeper.js';
export { PROCESS_FOLDER_PREFIX } from './outbox-folders.js';
export { acquireOutbox, releaseOutbox } from './shared-outbox.js';
export { createReplaySender, type ReplayWarning } from './replay-sender.js';
export { readFrames } from './read-frames.js';
export { checkSegmentHeader, SEGMENT_HEADER_BYTES, parseSegmentFileName } from './segment-file.js';
export { LOCK_FILE_NAME, inspectOutboxLock } from './lock-file.js';
