import { setImmediate } from 'node:timers/promises';

/**
 * Lets pending I/O (requests, ingest) run before the next step of a long
 * lifecycle job: on SQLite each step runs synchronously on the event loop,
 * so a job that never yielded would stall every request until it ended.
 */
export function yieldToRequests(): Promise<void> {
  return setImmediate();
}
