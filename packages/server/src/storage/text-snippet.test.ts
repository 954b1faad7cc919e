import { describe, expect, it } from 'vitest';
import { textSnippet } from './text-snippet.js';

describe('textSnippet', () => {
  it('flags whole-word matches case-insensitively and keeps the original text', () => {
    expect(textSnippet('weather in Oslo today, oslo again', ['oslo'])).toEqual([
      { text: 'weather in ', match: false },
      { text: 'Oslo', match: true },
      { text: ' today, ', match: false },
      { text: 'oslo', match: true },
      { text: ' again', match: false },
    ]);
  });

  it('does not flag a word inside a longer word, and answers undefined without a match', () => {
    expect(textSnippet('greeting', ['greet'])).toBeUndefined();
  });

  it('matches words folded (case and diacritics) and shows them as stored', () => {
    expect(textSnippet('un CAFÉ noir', ['cafe'])).toEqual([
      { text: 'un ', match: false },
      { text: 'CAFÉ', match: true },
      { text: ' noir', match: false },
    ]);
  });

  it('cuts a long text around the first match, marking the cuts', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const parts = textSnippet(words.join(' '), ['w20']) ?? [];
    expect(parts[0]).toEqual({ text: '…', match: false });
    expect(parts.at(-1)).toEqual({ text: '…', match: false });
    expect(parts.filter((p) => p.match)).toEqual([{ text: 'w20', match: true }]);
    expect(parts.map((p) => p.text).join('')).toBe(`…${words.slice(10, 31).join(' ')}…`);
  });
});
