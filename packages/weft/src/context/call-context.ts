import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallRecord } from '../calls/call-record.js';

/**
 * What AsyncLocalStorage carries through the user's code: the call that is
 * running (the parent of any op called now) and attributes set by
 * `withAttributes`. One store per process, shared by every client, so a
 * `withAttributes` block applies whichever client traces inside it.
 */
export interface ContextFrame {
  readonly call: CallRecord | undefined;
  readonly attributes: Readonly<Record<string, unknown>> | undefined;
  /** Set by `withSession`: the session every call started inside belongs to. */
  readonly sessionId?: string | undefined;
}

export const callContext = new AsyncLocalStorage<ContextFrame>();

/**
 * Runs `fn` outside any call's context, so work the SDK starts (pool tasks,
 * timers, HTTP) neither inherits nor retains the caller's frame.
 */
export function outsideCalls<T>(fn: () => T): T {
  return callContext.exit(fn);
}
