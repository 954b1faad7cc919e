/**
 * Tokens a text costs an LLM, estimated without a tokenizer (the CLI ships
 * none: o200k's tables alone are megabytes). It counts the pieces BPE
 * tokenizers split text into, erring high: a word is one token per four
 * letters, a digit run one per three digits, every other symbol one, a run
 * of whitespace one. Outlines are ids, figures and op names, where this
 * comes out above o200k's count (see trace-outline.test.ts, which checks
 * the outline of a 25,001-call trace against `gpt-tokenizer`).
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const [piece] of text.matchAll(PIECES)) {
    const c = piece.charCodeAt(0);
    if (isLetter(c)) tokens += Math.ceil(piece.length / 4);
    else if (c >= 48 && c <= 57) tokens += Math.ceil(piece.length / 3);
    else if (c > 127 && !/\s/.test(piece))
      tokens += 2 * piece.length; // multi-byte symbols: up to 3 bytes each
    else tokens += 1;
  }
  return tokens;
}

const PIECES = /[A-Za-z]+|[0-9]+|\s+|[^A-Za-z0-9\s]/g;

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
