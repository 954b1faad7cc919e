import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallRecord, OpSpec } from '../calls/index.js';
import { callContext } from '../context/index.js';
import type { CallInterceptor, Interception, Tracer } from '../op/index.js';
import type { ReplaySession } from './replay-session.js';

/** The replay whose entry op runs here (through its awaits and callbacks). */
const activeSession = new AsyncLocalStorage<ReplaySession>();

/** A replay bug never reaches the app: the call then runs live, as without replay. */
const dispatcher: CallInterceptor = {
  intercept(call: CallRecord, spec: OpSpec, args: readonly unknown[]): Interception | undefined {
    const session = activeSession.getStore();
    if (session === undefined) return undefined;
    try {
      return session.intercept(call, spec, args);
    } catch {
      return undefined;
    }
  },
};

/** Replays running on each tracer: its interceptor is set while there is one. */
const running = new WeakMap<Tracer, number>();

/**
 * Runs `entry` as the root of `session`'s new trace: outside any current
 * call (so it starts a trace of its own), with the tracer asking the session
 * about every call started inside.
 */
export async function runInSession<T>(
  tracer: Tracer,
  session: ReplaySession,
  entry: () => T,
): Promise<Awaited<T>> {
  running.set(tracer, (running.get(tracer) ?? 0) + 1);
  tracer.interceptor = dispatcher;
  try {
    return await callContext.exit(() => activeSession.run(session, entry));
  } finally {
    const left = (running.get(tracer) ?? 1) - 1;
    running.set(tracer, left);
    if (left === 0) tracer.interceptor = undefined;
  }
}
