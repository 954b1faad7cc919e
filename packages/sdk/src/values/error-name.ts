/**
 * The prototypes whose `name` is a built-in one: an error whose `name` is
 * inherited from one of these was made by a subclass that never set its own
 * (the `openai` package's `RateLimitError` and every other `APIError` read
 * `name` "Error"), so its class says more than its `name` does.
 */
const BUILT_IN_PROTOTYPES: ReadonlySet<object> = new Set<object>([
  Error.prototype,
  TypeError.prototype,
  RangeError.prototype,
  SyntaxError.prototype,
  ReferenceError.prototype,
  EvalError.prototype,
  URIError.prototype,
  AggregateError.prototype,
]);

/**
 * The name an error is recorded by: its `name`, unless that is inherited
 * from a built-in error prototype while the error is an instance of a
 * subclass, in which case the subclass's name — the class the caller would
 * test with `instanceof` (`RateLimitError`, not "Error"). A `name` the error
 * or its class sets is kept as it is. Never throws: a throwing getter or a
 * Proxy gives the plain `name` read, or `undefined`.
 */
export function errorName(error: object): unknown {
  let name: unknown;
  try {
    name = (error as { name?: unknown }).name;
    if (Object.hasOwn(error, 'name')) return name;
    let owner: object | null = Object.getPrototypeOf(error) as object | null;
    while (owner !== null && !Object.hasOwn(owner, 'name'))
      owner = Object.getPrototypeOf(owner) as object | null;
    if (owner === null || !BUILT_IN_PROTOTYPES.has(owner)) return name;
    const ctor = (Object.getPrototypeOf(error) as { constructor?: unknown } | null)?.constructor;
    const className = typeof ctor === 'function' ? ctor.name : undefined;
    return typeof className === 'string' && className !== '' ? className : name;
  } catch {
    return name;
  }
}
