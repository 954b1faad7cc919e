import type { FeedbackInput, ObjectLabel } from '@weft/protocol';
import { NotInitializedError } from '../errors/index.js';
import type { ObjectRef } from '../objects/index.js';
import { makeOp } from '../op/index.js';
import type { FlushResult } from '../lifecycle/index.js';
import { type Flushable, withFlush as wrapWithFlush, type WithFlushOptions } from '../serverless/index.js';
import { getDefaultClient } from './default-client.js';
import type { FlushOptions } from './flush-client.js';

/**
 * Wraps a function so each call is traced by the default client (looked up at
 * call time, so ops may be defined before `init`; without a client they run
 * untraced, with one warning). Also a standard method decorator:
 * `@weft.op()` or `@weft.op({ name })`.
 *
 * @example
 * const answer = weft.op(async function answer(question: string) { … });
 */
export const op = makeOp(() => getDefaultClient()?.tracer);

const EMPTY: FlushResult = {
  sent: 0,
  spilled: 0,
  failed: 0,
  pending: 0,
  objects: 0,
  objectsFailed: 0,
  replayed: 0,
};

/** `flush()` of the default client; resolves at once with zeros when there is none. */
export function flush(options?: FlushOptions): Promise<FlushResult> {
  return getDefaultClient()?.flush(options) ?? Promise.resolve({ ...EMPTY });
}

/** `shutdown()` of the default client; resolves at once with zeros when there is none. */
export function shutdown(options?: FlushOptions): Promise<FlushResult> {
  return getDefaultClient()?.shutdown(options) ?? Promise.resolve({ ...EMPTY });
}

/** `publish()` of the default client. */
export function publish(value: unknown, options: { name?: string } = {}): Promise<ObjectRef> {
  const client = getDefaultClient();
  if (client === undefined) return Promise.reject(new NotInitializedError('publish'));
  return client.publish(value, options);
}

/** `get()` of the default client. */
export function get(ref: string | ObjectRef): Promise<unknown> {
  const client = getDefaultClient();
  if (client === undefined) return Promise.reject(new NotInitializedError('get'));
  return client.get(ref);
}

/** The default client as a flush target, looked up at each flush (so handlers may be wrapped before `init`). */
const defaultFlushTarget: Flushable = { flush };

/**
 * `withFlush()` of the default client: the wrapped handler's promise settles
 * only once the calls it traced are acknowledged by the server or in the
 * outbox (or `timeoutMs` passed). See docs/serverless.md.
 *
 * @example
 * export const handler = weft.withFlush(async (event, context) => { … });
 */
export function withFlush<Args extends unknown[], Result>(
  handler: (...args: Args) => Result,
  options: WithFlushOptions = {},
): (...args: Args) => Promise<Awaited<Result>> {
  return wrapWithFlush(handler, options, defaultFlushTarget);
}

/**
 * `feedback()` of the default client: feedback on a call, delivered durably;
 * returns its id, or `undefined` without a call id (a call sampling left out).
 */
export function feedback(callId: string | null | undefined, input: FeedbackInput): string | undefined {
  const client = getDefaultClient();
  if (client === undefined) throw new NotInitializedError('feedback');
  return client.feedback(callId, input);
}

/** `setLabel()` of the default client: points a label of an object name at a version. */
export function setLabel(ref: string | ObjectRef, label: string): Promise<ObjectLabel> {
  const client = getDefaultClient();
  if (client === undefined) return Promise.reject(new NotInitializedError('setLabel'));
  return client.setLabel(ref, label);
}
