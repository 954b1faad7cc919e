import type { Call } from '@weft/protocol';
import { plainOpName } from './op-name.js';
import { foldText, searchTextOf, WORD } from './search-text.js';

/** Words of context kept on each side of the first match. */
const CONTEXT_WORDS = 10;

/** A snippet: a passage of text cut into parts, the matched words flagged. */
export type SnippetParts = { text: string; match: boolean }[];

/**
 * A passage of `text` around the first whole-word match of any of `words`
 * (folded, see `searchWords`), every matching word flagged, as the UI renders
 * a search hit. Each word of the text is folded before it is compared, so the
 * passage shows the text as stored (`Café`) while it matches as searched
 * (`cafe`). It is the first match, not a ranked passage (the contract leaves
 * the choice to the engine).
 */
export function textSnippet(text: string, words: readonly string[]): SnippetParts | undefined {
  const wanted = new Set(words);
  const tokens = [...text.matchAll(WORD)];
  const matches = (token: string) => wanted.has(foldText(token));
  const first = tokens.findIndex((t) => matches(t[0]));
  if (first < 0) return undefined;
  const from = Math.max(0, first - CONTEXT_WORDS);
  const to = Math.min(tokens.length - 1, first + CONTEXT_WORDS);
  const start = tokens[from]?.index ?? 0;
  const end = (tokens[to]?.index ?? 0) + (tokens[to]?.[0].length ?? 0);
  const parts: SnippetParts = [];
  if (from > 0) parts.push({ text: '…', match: false });
  let at = start;
  for (const token of tokens.slice(from, to + 1)) {
    if (!matches(token[0])) continue;
    const index = token.index ?? 0;
    if (index > at) parts.push({ text: text.slice(at, index), match: false });
    parts.push({ text: token[0], match: true });
    at = index + token[0].length;
  }
  if (end > at) parts.push({ text: text.slice(at, end), match: false });
  if (to < tokens.length - 1) parts.push({ text: '…', match: false });
  return parts;
}

/**
 * The searchable text of a stored call (see the `Storage` contract, "Text
 * matching"): display name, plain op name, the text of its inputs, then of
 * its output or exception message, as ingest computed it.
 */
export function callSearchText(call: Call): string {
  return [
    call.displayName ?? '',
    plainOpName(call.opName),
    searchTextOf(call.inputs) ?? '',
    searchTextOf(call.output ?? call.exception?.message ?? null) ?? '',
  ].join(' ');
}
