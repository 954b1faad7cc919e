import { type OpOptions, type OpSpec, parameterNames } from '../calls/index.js';
import type { Tracer } from './tracer.js';
import { warnOnce } from '../diagnostics/index.js';

// biome-ignore lint/suspicious/noExplicitAny: the wrapped function's own signature is preserved through F.
type AnyFunction = (...args: any[]) => any;

/** A standard (TC39, TypeScript 5) method decorator. */
export type OpDecorator = <F extends AnyFunction>(method: F, context: ClassMethodDecoratorContext) => F;

/** Finds the tracer that runs a call: a fixed client's, or the default client's at call time. */
export type TracerSource = () => Tracer | undefined;

function isDecoratorContext(value: unknown): value is ClassMethodDecoratorContext {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'method' &&
    'name' in value
  );
}

/**
 * Wraps `fn` so each call is traced. Computed once here: the name and the
 * parameter names (parsed from the source text). The wrapper keeps `this`,
 * the function's `name` and `length`, and its type.
 */
export function wrap<F extends AnyFunction>(
  fn: F,
  options: OpOptions,
  methodName: string | undefined,
  tracer: TracerSource,
): F {
  if (typeof fn !== 'function') {
    throw new TypeError(`weft.op expects a function, got ${fn === null ? 'null' : typeof fn}`);
  }
  const spec: OpSpec = {
    name: options.name ?? (methodName === undefined ? fn.name || 'anonymous' : undefined),
    methodName,
    params: parameterNames(fn),
    options,
  };
  const traced = function (this: unknown, ...args: unknown[]): unknown {
    const t = tracer();
    if (t === undefined) {
      warnOnce(
        'WEFT_NOT_INITIALIZED',
        'weft.op: calls are not traced: no active Weft client (weft.init() was not called, or the client was shut down). This warning is shown once.',
      );
      return Reflect.apply(fn, this, args);
    }
    return t.run(spec, fn, this, args);
  };
  Object.defineProperty(traced, 'name', { value: fn.name, configurable: true });
  Object.defineProperty(traced, 'length', { value: fn.length, configurable: true });
  return traced as F;
}

/** `op(fn, opts)`, `@op` and `@op(opts)` against one tracer source. */
export function makeOp(tracer: TracerSource) {
  function op<F extends AnyFunction>(fn: F, options?: OpOptions): F;
  function op(options?: OpOptions): OpDecorator;
  function op(first?: AnyFunction | OpOptions, second?: OpOptions | ClassMethodDecoratorContext): unknown {
    if (typeof first === 'function') {
      if (isDecoratorContext(second)) return wrap(first, {}, String(second.name), tracer);
      return wrap(first, second ?? {}, undefined, tracer);
    }
    const options = first ?? {};
    return (method: AnyFunction, context: ClassMethodDecoratorContext) => {
      if (!isDecoratorContext(context)) {
        throw new TypeError(
          '@weft.op() decorates class methods (standard decorators); use weft.op(fn) for functions',
        );
      }
      return wrap(method, options, String(context.name), tracer);
    };
  }
  return op;
}
