// Kept at its old path for the fault tests, which open a client's outbox first.
export { acquireOutbox, releaseOutbox } from '../outbox/index.js';
