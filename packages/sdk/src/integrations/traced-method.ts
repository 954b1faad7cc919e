import type { OpOptions, StreamAccumulator } from '../calls/index.js';
import { op as defaultOp } from '../client/index.js';
import { isPlainObject } from '../datasets/index.js';
import { chainApiPromise } from './api-promise.js';
import type { WrapClientOptions } from './wrap-options.js';

/** Marks a method this module traced, so wrapping a client twice traces each call once. */
const TRACED = Symbol.for('weft.integrations.traced');

// biome-ignore lint/suspicious/noExplicitAny: SDK methods are called with whatever the caller passes.
type AnyMethod = (this: unknown, ...args: any[]) => unknown;

/** How one SDK method is traced. */
export interface MethodTracing {
  /** Op name, e.g. `openai.chat.completions.create`. */
  name: string;
  /** The request the method sends instead of the caller's (e.g. asking for stream usage); the caller's is what is recorded. */
  prepareRequest?: (request: unknown) => unknown;
  /** Adds up a streamed reply (see `OpOptions.streamAccumulator`). */
  streamAccumulator?: (args: readonly unknown[]) => StreamAccumulator;
  /** What is recorded of a non-streamed reply. @default the reply as it is */
  recordOutput?: (output: unknown) => unknown;
}

/**
 * Replaces `resource[method]` with a traced version, as an own property of
 * that resource object: its class, prototype and every other member stay
 * as they were, so `instanceof` and the SDK's typing hold, and the SDK's own
 * helpers that call the method (`parse()`, `stream()`) go through it too.
 * The inputs recorded are the request's fields (request options such as
 * headers and signals are not recorded). A method already traced is left alone.
 */
export function traceMethod(
  resource: object | undefined,
  method: string,
  tracing: MethodTracing,
  options: WrapClientOptions,
): void {
  if (resource === undefined) return;
  const original = (resource as Record<string, unknown>)[method];
  if (typeof original !== 'function' || (original as { [TRACED]?: true })[TRACED]) return;
  const { prepareRequest } = tracing;
  const call = function (this: unknown, request: unknown, ...rest: unknown[]): unknown {
    const self = this === undefined ? resource : this;
    return Reflect.apply(original, self, [prepareRequest ? prepareRequest(request) : request, ...rest]);
  };
  const opOptions: OpOptions = {
    name: tracing.name,
    postprocessInputs: (inputs) =>
      isPlainObject(inputs.request) ? inputs.request : { request: inputs.request },
    chainPromise: chainApiPromise,
    streamAccumulator: tracing.streamAccumulator,
    postprocessOutput: tracing.recordOutput,
    attributes: options.attributes,
  };
  const traced = (options.weft?.op ?? defaultOp)(call as AnyMethod, opOptions);
  Object.defineProperty(traced, TRACED, { value: true });
  Object.defineProperty(resource, method, {
    value: traced,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}
