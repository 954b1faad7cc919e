// `@weft/sdk/outbox`: operate durable outboxes from outside the application that
// wrote them (the `weft outbox` CLI commands are built on this).
export { OutboxInUseError } from './errors/index.js';
export { findOutboxFolders, type OutboxFolder } from './find-outbox-folders.js';
export { type OutboxFolderStatus, type OutboxStatusOptions, outboxStatus } from './outbox-status.js';
export type { OutboxLockState } from './read-lock-state.js';
export {
  type FolderReplay,
  type ReplayOutboxOptions,
  type ReplayOutboxResult,
  type ReplayStop,
  replayOutbox,
} from './replay-outbox.js';
