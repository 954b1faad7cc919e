/** Project tokens from two sources; a token in both reaches the union of its projects. */
export function mergeProjectTokens(
  a: Readonly<Record<string, readonly string[]>>,
  b: Readonly<Record<string, readonly string[]>>,
): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const source of [a, b]) {
    for (const [token, projects] of Object.entries(source)) {
      merged[token] = [...new Set([...(merged[token] ?? []), ...projects])];
    }
  }
  return merged;
}
