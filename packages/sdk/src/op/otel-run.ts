import type { OtelContext, OtelContextManager } from '../context/index.js';

/** The active OTel context; `undefined` (no bridge for this call) if a foreign context manager throws. */
export function activeOtelContext(manager: OtelContextManager): OtelContext | undefined {
  try {
    return manager.active();
  } catch {
    return undefined;
  }
}

/** Runs `fn` with `context` as the active OTel context (a static function: no closure per call). */
export function runInOtelContext(
  manager: OtelContextManager,
  context: OtelContext,
  fn: (...args: unknown[]) => unknown,
  thisArg: unknown,
  args: unknown[],
): unknown {
  return manager.with(
    context,
    Reflect.apply as (f: typeof fn, t: unknown, a: unknown[]) => unknown,
    undefined,
    fn,
    thisArg,
    args,
  );
}
