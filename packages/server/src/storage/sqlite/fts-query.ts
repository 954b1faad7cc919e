import { searchWords } from '../search-text.js';

/** Opens and closes a highlighted span in `snippet()` output: private-use characters no text is expected to hold. */
export const MATCH_OPEN = '\uE000';
export const MATCH_CLOSE = '\uE001';

/**
 * Turns what a person typed into an FTS5 query that can never be a syntax
 * error: the text is cut into words (letters and digits, as the `unicode61`
 * tokenizer cuts it), each word becomes a quoted string, so `"`, `*`, `:`,
 * `(`, `-`, `NEAR`, `AND`, `OR`, `NOT` are only text; words are ANDed.
 * Whole words only, no prefix: a short prefix expands to every word it
 * starts (at 100,000 calls a two-letter prefix took ~0.5 s).
 * `undefined` when the text has no word at all (only punctuation).
 */
export function ftsMatchExpression(text: string): string | undefined {
  const words = searchWords(text);
  if (words.length === 0) return undefined;
  return words.map((word) => `"${word}"`).join(' ');
}

/** Splits `snippet()` output at its match markers into parts the UI renders, matches flagged. */
export function snippetParts(snippet: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  let rest = snippet;
  while (rest.length > 0) {
    const open = rest.indexOf(MATCH_OPEN);
    if (open < 0) {
      parts.push({ text: rest, match: false });
      break;
    }
    if (open > 0) parts.push({ text: rest.slice(0, open), match: false });
    const close = rest.indexOf(MATCH_CLOSE, open + 1);
    const end = close < 0 ? rest.length : close;
    parts.push({ text: rest.slice(open + 1, end), match: true });
    rest = close < 0 ? '' : rest.slice(close + 1);
  }
  return parts.filter((p) => p.text.length > 0);
}
