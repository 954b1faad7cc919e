import { callContext } from './call-context.js';

/**
 * Runs `fn` with `attributes` attached to every call started inside it (merged
 * over attributes of enclosing `withAttributes` blocks; an op's own
 * `attributes` option wins on conflicts). Returns what `fn` returns.
 */
export function withAttributes<T>(attributes: Record<string, unknown>, fn: () => T): T {
  const frame = callContext.getStore();
  const merged = frame?.attributes === undefined ? { ...attributes } : { ...frame.attributes, ...attributes };
  return callContext.run(
    {
      call: frame?.call,
      attributes: merged,
      otel: frame?.otel,
      unsampledBy: frame?.unsampledBy,
      sessionId: frame?.sessionId,
      remoteParent: frame?.remoteParent,
    },
    fn,
  );
}
