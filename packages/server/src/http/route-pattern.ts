/**
 * Turns a path builder from `routes` into a Fastify pattern, so every path
 * the server listens on is spelled once, in @weft/protocol:
 * `routePattern(routes.call, 'project', 'id')` gives `/v1/calls/:project/:id`.
 * The builders percent-encode their arguments, so they receive inert
 * placeholders that are swapped for `:name` afterwards.
 */
export function routePattern<A extends string[]>(builder: (...args: A) => string, ...names: A): string {
  const placeholders = names.map((_, i) => `__weft_param_${i}__`) as A;
  let pattern = builder(...placeholders);
  names.forEach((name, i) => {
    pattern = pattern.replace(placeholders[i] as string, `:${name}`);
  });
  return pattern;
}
