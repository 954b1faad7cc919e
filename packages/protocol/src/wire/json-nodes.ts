/**
 * What {@link countJsonNodes} found: `within` with the count, or `over` when
 * the text holds more than `maxNodes` values (counting stopped there).
 */
export type JsonNodeCount = { status: 'within'; nodes: number } | { status: 'over'; maxNodes: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;

/**
 * Counts the values of JSON text without parsing it (object keys count,
 * containers count once each, as {@link countMsgpackNodes} counts), so a
 * server can refuse a body of millions of tiny values before `JSON.parse`
 * materialises them: 60 MB of `{},` is 20 million objects. A lexer, not a
 * validator: malformed text is counted as far as it goes and left to the
 * parser to refuse. Strings are skipped with `indexOf`, so long strings
 * cost little.
 */
export function countJsonNodes(text: Uint8Array, { maxNodes }: { maxNodes: number }): JsonNodeCount {
  const bytes = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  const end = bytes.byteLength;
  let nodes = 0;
  let i = 0;
  while (i < end) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      if (++nodes > maxNodes) return { status: 'over', maxNodes };
      i = afterString(bytes, i + 1);
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++nodes > maxNodes) return { status: 'over', maxNodes };
      i++;
    } else if (isTokenStart(c)) {
      // A number, true, false or null.
      if (++nodes > maxNodes) return { status: 'over', maxNodes };
      i++;
      while (i < end && isTokenPart(bytes[i]!)) i++;
    } else {
      // Whitespace, `,`, `:`, `}`, `]`, or a byte the parser will refuse.
      i++;
    }
  }
  return { status: 'within', nodes };
}

/** The index after the closing quote of the string whose content starts at `from` (the end if unterminated). */
function afterString(bytes: Buffer, from: number): number {
  let i = from;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, i);
    if (quote === -1) return bytes.byteLength;
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    // An even run of backslashes escapes itself; the quote ends the string.
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

/** `-`, a digit, or the first letter of true, false, null. */
function isTokenStart(c: number): boolean {
  return c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e;
}

/** A character that continues a number or a literal. */
function isTokenPart(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    c === 0x2e ||
    c === 0x2b ||
    c === 0x2d
  );
}
