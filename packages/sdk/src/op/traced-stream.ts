import type { ModelUsage } from '@weft/protocol';
import { callContext, type ContextFrame } from '../context/index.js';
import { StreamAbandonedError } from '../errors/index.js';
import type { StreamAccumulator } from '../calls/index.js';

/** How a streamed call ended: what the accumulator made of it, and when its first output chunk arrived. */
export interface StreamEnd {
  output: unknown;
  usage: Record<string, ModelUsage> | undefined;
  /** `performance.now()` at the first `'output'` chunk; `undefined` when none came. */
  firstOutputAt: number | undefined;
  error: unknown;
  failed: boolean;
}

/** Ends a streamed call. */
export type EndStream = (end: StreamEnd) => void;

type AnyIterator = Iterator<unknown> | AsyncIterator<unknown>;

/**
 * True for what is traced as a stream: generator objects and other iterators
 * (`next` plus `Symbol.iterator` or `Symbol.asyncIterator`), and async
 * iterables that are not Node streams (e.g. an LLM SDK's stream object).
 * Arrays, strings, Maps and Sets are plain values.
 */
export function isStreamLike(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  try {
    const v = value as Record<PropertyKey, unknown>;
    if (typeof v.next === 'function') {
      return typeof v[Symbol.asyncIterator] === 'function' || typeof v[Symbol.iterator] === 'function';
    }
    return (
      typeof v[Symbol.asyncIterator] === 'function' &&
      typeof v.pipe !== 'function' &&
      typeof v.then !== 'function'
    );
  } catch {
    return false;
  }
}

/**
 * Streams the caller dropped unfinished: when the wrapper handed to the
 * caller is garbage collected, its call ends with a {@link StreamAbandonedError}
 * (the held value must not reference the wrapper, or it would never be
 * collected).
 */
const dropped = new FinalizationRegistry<() => void>((endAbandoned) => endAbandoned());

/**
 * Wraps a stream so the call ends when it ends, errors, or is abandoned
 * (`return()`, e.g. `break` in `for await`; or the wrapper is garbage
 * collected unfinished). Each chunk goes through `accumulator` (a plain
 * stream's keeps the list of snapshots; a client wrapper's adds up the text
 * and tool calls), which may hide a chunk from the caller; its output is
 * taken ONCE at the end. The body runs in the call's context, so ops it
 * calls are children of the streamed call.
 */
export function traceStream(
  source: object,
  frame: ContextFrame,
  accumulator: StreamAccumulator,
  end: EndStream,
): object {
  let count = 0;
  let firstOutputAt: number | undefined;
  let ended = false;
  const token = {};
  const finish = (error: unknown, failed: boolean) => {
    if (ended) return;
    ended = true;
    dropped.unregister(token);
    let output: unknown;
    let usage: Record<string, ModelUsage> | undefined;
    try {
      output = accumulator.output();
      usage = accumulator.usage();
    } catch (thrown) {
      // A wrapper's accumulator failing must not keep the call open; the call records why.
      end({
        output: undefined,
        usage: undefined,
        firstOutputAt,
        error: failed ? error : thrown,
        failed: true,
      });
      return;
    }
    end({ output, usage, firstOutputAt, error, failed });
  };
  // Made here, not in `watch`: the held callback must not capture the wrapper it watches.
  const endAbandoned = () => finish(new StreamAbandonedError(count), true);
  /** Ends the call when `wrapper` (what the caller holds while reading) is collected unfinished. */
  const watch = <T extends object>(wrapper: T): T => {
    dropped.unregister(token);
    dropped.register(wrapper, endAbandoned, token);
    return wrapper;
  };
  /** Reads a step; true when its chunk is hidden from the caller (the next one is read instead). */
  const onStep = (step: IteratorResult<unknown>): boolean => {
    if (step.done) {
      finish(undefined, false);
      return false;
    }
    count++;
    let kind: string;
    try {
      kind = accumulator.add(step.value);
    } catch {
      kind = 'other'; // A chunk the accumulator cannot read is still the caller's.
    }
    if (kind === 'output' && firstOutputAt === undefined) firstOutputAt = performance.now();
    return kind === 'hidden';
  };
  const onError = (error: unknown) => {
    finish(error, true);
    throw error;
  };
  const wrap = (iterator: AnyIterator, isAsync: boolean): AnyIterator => {
    const call = (method: 'next' | 'return' | 'throw', arg: unknown[]): unknown => {
      const fn = (iterator as unknown as Record<string, ((...a: unknown[]) => unknown) | undefined>)[method];
      if (fn === undefined) {
        // No return()/throw() on the source: abandoning ends the call, a throw ends it as an error.
        if (method === 'return') {
          finish(undefined, false);
          const done = { done: true, value: arg[0] };
          return isAsync ? Promise.resolve(done) : done;
        }
        finish(arg[0], true);
        if (isAsync) return Promise.reject(arg[0]);
        throw arg[0];
      }
      if (method === 'return') finishAfter = true;
      let result: unknown;
      try {
        result = callContext.run(frame, () => Reflect.apply(fn, iterator, arg));
      } catch (error) {
        return onError(error);
      }
      if (isAsync)
        return Promise.resolve(result as Promise<IteratorResult<unknown>>).then(onAsyncStep, onError);
      let step = result as IteratorResult<unknown>;
      while (onStep(step)) {
        try {
          step = callContext.run(frame, () =>
            Reflect.apply(iterator.next, iterator, []),
          ) as IteratorResult<unknown>;
        } catch (error) {
          return onError(error);
        }
      }
      if (finishAfter) finish(undefined, false);
      return step;
    };
    let finishAfter = false;
    const onAsyncStep = (step: IteratorResult<unknown>): unknown => {
      // A hidden chunk: read the next one instead (the caller never sees it).
      if (onStep(step)) return call('next', []);
      if (finishAfter) finish(undefined, false);
      return step;
    };
    const wrapped = {
      next: (...a: unknown[]) => call('next', a),
      return: (...a: unknown[]) => call('return', a),
      throw: (...a: unknown[]) => call('throw', a),
      [isAsync ? Symbol.asyncIterator : Symbol.iterator]() {
        return wrapped;
      },
    };
    return wrapped as unknown as AnyIterator;
  };
  const s = source as Record<PropertyKey, unknown>;
  if (typeof s.next === 'function')
    return watch(wrap(source as AnyIterator, typeof s[Symbol.asyncIterator] === 'function'));
  if (Object.hasOwn(s, 'iterator') && typeof s.iterator === 'function') {
    // The streams of the Stainless-generated SDKs (`openai`, `@anthropic-ai/sdk`)
    // start every reader from this own `iterator` factory: `for await`, and also
    // `tee()` and `toReadableStream()`, which a proxy's bound methods would let
    // bypass the trace. Replacing the factory on this one object (made by the SDK
    // for this call) traces all of them and keeps the object itself.
    const makeIterator = s.iterator as () => AsyncIterator<unknown>;
    s.iterator = () => watch(wrap(Reflect.apply(makeIterator, source, []) as AnyIterator, true));
    return watch(source);
  }
  // An async iterable that is not itself an iterator: keep the object (its other
  // methods), intercept only how it is iterated.
  return watch(
    new Proxy(source, {
      get(target, key, receiver) {
        if (key === Symbol.asyncIterator) {
          // Once reading starts, the caller holds the iterator, not this object: watch that instead.
          return () => watch(wrap((target as AsyncIterable<unknown>)[Symbol.asyncIterator](), true));
        }
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }),
  );
}
