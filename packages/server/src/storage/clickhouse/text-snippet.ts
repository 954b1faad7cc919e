/** Words of context kept on each side of the first match. */
const CONTEXT_WORDS = 10;

/**
 * A passage of `text` around the first whole-word, case-insensitive match of
 * any of `words` (lower-cased), every matching word flagged, as the UI
 * renders SQLite's `snippet()`. ClickHouse 18.16 has no full-text index, so
 * the passage is cut here from the folded search text of a page's calls;
 * it is the first match, not FTS5's best-ranked passage.
 */
export function textSnippet(
  text: string,
  words: readonly string[],
): { text: string; match: boolean }[] | undefined {
  const wanted = new Set(words);
  const tokens = [...text.matchAll(/[\p{L}\p{N}\p{Co}]+/gu)];
  const first = tokens.findIndex((t) => wanted.has(t[0].toLowerCase()));
  if (first < 0) return undefined;
  const from = Math.max(0, first - CONTEXT_WORDS);
  const to = Math.min(tokens.length - 1, first + CONTEXT_WORDS);
  const start = tokens[from]?.index ?? 0;
  const end = (tokens[to]?.index ?? 0) + (tokens[to]?.[0].length ?? 0);
  const parts: { text: string; match: boolean }[] = [];
  if (from > 0) parts.push({ text: '…', match: false });
  let at = start;
  for (const token of tokens.slice(from, to + 1)) {
    if (!wanted.has(token[0].toLowerCase())) continue;
    const index = token.index ?? 0;
    if (index > at) parts.push({ text: text.slice(at, index), match: false });
    parts.push({ text: token[0], match: true });
    at = index + token[0].length;
  }
  if (end > at) parts.push({ text: text.slice(at, end), match: false });
  if (to < tokens.length - 1) parts.push({ text: '…', match: false });
  return parts;
}
