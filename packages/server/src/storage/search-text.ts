/** Most characters of one value's search text; the rest of a huge value is not searchable. */
export const MAX_SEARCH_CHARS = 16_384;

/**
 * The text of a value the full-text index sees: its string leaves (and object
 * keys of string leaves are not included: they are structure, not content),
 * space-separated, depth-first, cut at {@link MAX_SEARCH_CHARS}. `null` when
 * there is no text, so the index stores nothing for it.
 */
export function searchTextOf(value: unknown, maxChars = MAX_SEARCH_CHARS): string | null {
  const parts: string[] = [];
  let length = 0;
  // An explicit stack: values arrive decoded from the wire, bounded in depth by
  // the protocol, but a stack avoids recursion limits entirely.
  const stack: unknown[] = [value];
  while (stack.length > 0 && length < maxChars) {
    const next = stack.pop();
    if (typeof next === 'string') {
      if (next.length === 0) continue;
      const part = next.length > maxChars - length ? next.slice(0, maxChars - length) : next;
      parts.push(part);
      length += part.length + 1;
    } else if (Array.isArray(next)) {
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
    } else if (next !== null && typeof next === 'object' && !(next instanceof Uint8Array)) {
      const values = Object.values(next as Record<string, unknown>);
      for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]);
    }
  }
  return parts.length === 0 ? null : parts.join(' ');
}

/** Most words of a search string that are matched; the rest are ignored. */
const MAX_SEARCH_WORDS = 16;

/** A word: a run of letters, digits and private-use characters (as SQLite's `unicode61` tokenizer cuts text). */
export const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

/**
 * Text as every engine compares it for search: lower-cased, then
 * diacritics removed (canonical decomposition, combining marks dropped), so
 * `Café`, `CAFE` and `café` fold to `cafe`. SQLite's FTS5 tokenizer folds the
 * same way (`unicode61 remove_diacritics 2`); other engines store the folded
 * text (see the `Storage` contract, "Text matching").
 */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
}

/**
 * The words of what a person typed into a search, folded ({@link foldText})
 * and cut at {@link WORD}, so quotes, `*`, `:`, `(`, `-` and operators are
 * only separators or text. Every engine matches these words, ANDed, as whole
 * words.
 */
export function searchWords(text: string): string[] {
  return foldText(text).match(WORD)?.slice(0, MAX_SEARCH_WORDS) ?? [];
}
