import type { PromiseSettlers } from '../calls/index.js';

/**
 * The promise type of the Stainless-generated SDKs (`openai`,
 * `@anthropic-ai/sdk`): a `Promise` subclass whose `then` parses the
 * response body (once, memoized per instance), with `.withResponse()`,
 * `.asResponse()` and `_thenUnwrap(transform)`, which the SDKs themselves use
 * to derive one request's promise from another's (`parse()`, `responses.create`).
 */
interface ApiPromise extends PromiseLike<unknown> {
  _thenUnwrap(transform: (value: unknown) => unknown): ApiPromise;
  asResponse(): Promise<unknown>;
}

function isApiPromise(value: PromiseLike<unknown>): value is ApiPromise {
  const v = value as Partial<ApiPromise>;
  return typeof v._thenUnwrap === 'function' && typeof v.asResponse === 'function';
}

/** Members whose use parses the body: from then on a failed parse is the caller's error and the call's. */
const PARSING = new Set<PropertyKey>(['then', 'catch', 'finally', 'withResponse']);

/**
 * `OpOptions.chainPromise` for SDK methods: the caller gets an APIPromise of
 * the same class (`instanceof`, `.withResponse()`, `.asResponse()` keep
 * working) whose value went through `settle.value` (a stream is traced there).
 *
 * - The value: `_thenUnwrap`, so parsing happens once, when the caller asks.
 * - HTTP and connection errors: the response promise, observed at once
 *   (reading it does not consume the body).
 * - Body parse errors: observed on the caller's promise, but only once the
 *   caller parses (`then`, `withResponse`…); parsing earlier would consume
 *   the body a caller of `.asResponse()` wants to read.
 * - `.asResponse()`: the caller reads the body itself; the call ends when the
 *   response arrives, without an output.
 * Anything else (another promise type) gets the default chaining.
 */
export function chainApiPromise(promise: PromiseLike<unknown>, settle: PromiseSettlers): unknown {
  if (!isApiPromise(promise)) {
    return Promise.resolve(promise).then(settle.value, (error: unknown) => {
      settle.error(error);
      throw error;
    });
  }
  const derived = promise._thenUnwrap((value) => settle.value(value));
  promise.asResponse().then(undefined, settle.error);
  return watchParsing(derived, settle);
}

/**
 * The caller's view of `target`: the first member that parses the body also
 * reports a failed parse to `settle.error`. Promises the SDK derives from it
 * (`_thenUnwrap`, which `parse()` uses) are watched the same way: their
 * parse runs `target`'s, so a malformed body must end the call there too,
 * or the call would stay in flight forever.
 */
function watchParsing(target: ApiPromise, settle: PromiseSettlers): ApiPromise {
  let watching = false;
  return new Proxy(target, {
    get(target, key) {
      if (!watching && PARSING.has(key)) {
        watching = true;
        target.then(undefined, settle.error);
      } else if (key === 'asResponse') {
        target.asResponse().then(() => settle.value(undefined), settle.error);
      } else if (key === '_thenUnwrap') {
        return (transform: (value: unknown) => unknown) =>
          watchParsing(target._thenUnwrap(transform), settle);
      }
      const value: unknown = Reflect.get(target, key, target);
      // Methods run on the real APIPromise: its private state is not on the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
