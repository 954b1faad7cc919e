import type { OpSpec } from '../calls/index.js';

/**
 * The op name of a decorated method, `Class.method`, read from the `this`
 * it runs on. Monomorphic cache: the same method on the same class (the
 * common case, a method called in a loop) costs two comparisons.
 */
export class MethodNames {
  #lastSpec: OpSpec | undefined;
  #lastCtor: unknown;
  #lastName = '';

  of(spec: OpSpec, thisArg: unknown): string {
    const method = spec.methodName ?? 'anonymous';
    let ctor: unknown;
    try {
      ctor =
        typeof thisArg === 'function'
          ? thisArg
          : (thisArg as { constructor?: unknown } | null | undefined)?.constructor;
    } catch {
      return method;
    }
    if (ctor !== this.#lastCtor || spec !== this.#lastSpec) {
      this.#lastCtor = ctor;
      this.#lastSpec = spec;
      const className =
        typeof ctor === 'function' && typeof ctor.name === 'string' && ctor.name ? ctor.name : undefined;
      this.#lastName = className ? `${className}.${method}` : method;
    }
    return this.#lastName;
  }
}
