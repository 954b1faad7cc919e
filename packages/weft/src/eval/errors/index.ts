export { CheckpointOpenFailedError } from './checkpoint-open-failed-error.js';
export { CheckpointWriteFailedError } from './checkpoint-write-failed-error.js';
