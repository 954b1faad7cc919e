/**
 * The dotted path of an options issue, with any `projectTokens` key (a
 * token) replaced by its position: `projectTokens[#2].0` instead of
 * `projectTokens.<the token>.0`, so an error message never shows a secret.
 */
export function redactedIssuePath(path: readonly PropertyKey[], input: unknown): string {
  if (path[0] !== 'projectTokens' || path.length < 2) return path.map(String).join('.');
  const tokens = (input as { projectTokens?: unknown } | undefined)?.projectTokens;
  const keys = tokens !== null && typeof tokens === 'object' ? Object.keys(tokens) : [];
  const position = keys.indexOf(String(path[1]));
  return [`projectTokens[#${position}]`, ...path.slice(2).map(String)].join('.');
}
