/**
 * The timer functions the transport schedules with. Injected so tests drive
 * backoff, batching intervals and circuit probes by hand instead of waiting on
 * the wall clock.
 */
export interface Timers {
  /** Runs `fn` after `ms`; the returned handle must not keep the process alive. */
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Milliseconds since the epoch; used to resolve `Retry-After` dates. */
  now(): number;
}

/** Real timers, each `unref()`'d: tracing never keeps a process alive. */
export const systemTimers: Timers = {
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms);
    handle.unref();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
  now: () => Date.now(),
};
