export { OutboxInUseError } from './outbox-in-use-error.js';
