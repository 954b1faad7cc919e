export { InvalidOutboxOptionsError } from './invalid-outbox-options-error.js';
export { OutboxClosedError } from './outbox-closed-error.js';
export { OutboxInvalidRecordError } from './outbox-invalid-record-error.js';
export { OutboxLockedError } from './outbox-locked-error.js';
export { OutboxOpenFailedError } from './outbox-open-failed-error.js';
export { OutboxReadFailedError } from './outbox-read-failed-error.js';
export { OutboxWriteFailedError } from './outbox-write-failed-error.js';
export { OutboxUnavailableError } from './outbox-unavailable-error.js';
