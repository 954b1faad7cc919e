import { debuglog } from 'node:util';
import { z } from 'zod';
import { describeOptionValue, firstOptionIssue, InvalidOptionsError } from '../errors/index.js';
import type { FlushResult } from '../lifecycle/index.js';

const debug = debuglog('weft');

/** What {@link withFlush} waits on: a `WeftClient`, or the module-level default client's `flush`. */
export interface Flushable {
  flush(options?: { timeoutMs?: number }): Promise<FlushResult>;
}

/** Options of `weft.withFlush`. */
export interface WithFlushOptions {
  /**
   * Longest wait for delivery once the handler has settled: the flush is
   * delivery-first (see `flush()`), so with the server down it waits for it
   * until then, and the calls are in the outbox. At the deadline the
   * handler's result is returned anyway; what the pipeline had not finished
   * stays queued for the next flush. Set it below the platform's own
   * timeout. @default `flush()`'s, 30_000
   */
  timeoutMs?: number;
}

const schema = z.strictObject({
  timeoutMs: z.number().finite('must be a finite number').nonnegative('must be ≥ 0').optional(),
});

/**
 * Wraps a request handler so the promise it returns settles only after the
 * calls traced while it ran are delivered: acknowledged by the server, or at
 * `timeoutMs` durably in the outbox. Returns what the handler
 * returned, unchanged; if it threw, flushes all the same, then throws the
 * SAME error. Made for runtimes that freeze or end the process as soon as
 * the handler's promise settles (AWS Lambda's `(event, context) => Promise`);
 * any async function works.
 *
 * It waits with the exact `flush()` barrier, cut when the handler settles:
 * every call that had FINISHED by then — this invocation's and, in a process
 * serving several requests at once, other requests' finished before it — and
 * nothing that finishes later (so a busy server never starves it). A call the
 * handler started and left running (not awaited) is not waited for. Put
 * `withFlush` outermost: `withFlush(op(handler))`, not `op(withFlush(handler))`,
 * or the op's own call ends after the flush.
 *
 * Options are checked here, at wrap time.
 * @throws InvalidOptionsError (`WEFT_INVALID_OPTIONS`) when `handler` is not a function or an option is invalid.
 */
export function withFlush<Args extends unknown[], Result>(
  handler: (...args: Args) => Result,
  options: WithFlushOptions,
  target: Flushable,
): (...args: Args) => Promise<Awaited<Result>> {
  if (typeof handler !== 'function') {
    throw new InvalidOptionsError(
      'handler',
      `withFlush expects the handler function, like withFlush(async (event, context) => …), got ${describeOptionValue(handler)}.`,
    );
  }
  const parsed = schema.safeParse(options ?? {});
  if (!parsed.success) {
    const { option, detail } = firstOptionIssue(parsed.error, options ?? {});
    throw new InvalidOptionsError(option, `Invalid withFlush options: ${detail}.`);
  }
  const flushOptions = parsed.data.timeoutMs === undefined ? {} : { timeoutMs: parsed.data.timeoutMs };

  return async function flushed(this: unknown, ...args: Args): Promise<Awaited<Result>> {
    let result: Awaited<Result>;
    try {
      result = await handler.apply(this, args);
    } catch (error) {
      await flushQuietly(target, flushOptions);
      throw error;
    }
    await flushQuietly(target, flushOptions);
    return result;
  };
}

/** Tracing never throws into user code: a flush that fails is logged (NODE_DEBUG=weft), not raised. */
async function flushQuietly(target: Flushable, options: { timeoutMs?: number }): Promise<void> {
  try {
    const result = await target.flush(options);
    if (result.pending > 0) debug('withFlush: deadline passed with %d units of work pending', result.pending);
  } catch (error) {
    debug('withFlush: flush failed: %o', error);
  }
}
