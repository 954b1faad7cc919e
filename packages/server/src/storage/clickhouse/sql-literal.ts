/** A value that {@link sqlLiteral} can write into SQL text. */
export type SqlValue = string | number | boolean | null | readonly SqlValue[];

/** Control characters and the two characters that end or escape a quoted string. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const NEEDS_ESCAPE = /[\\'\x00-\x1f\x7f]/g;

/**
 * THE way a value enters ClickHouse SQL text. ClickHouse 18.16 has no
 * server-side query parameters, so every value a request carries is written
 * as a literal through this one function (property-tested and fuzzed in
 * `sql-literal.test.ts` against a real server):
 *
 * - strings: single-quoted; `\` and `'` are backslash-escaped and every
 *   control character (NUL, newline, …) becomes `\xHH`, so the text between
 *   the quotes is never anything but the string. Other characters travel as
 *   UTF-8; a lone UTF-16 surrogate (not encodable) arrives as U+FFFD.
 * - numbers: finite only; JavaScript's shortest round-trip form, except
 *   subnormals, which 18.16's parser refuses, written bit-exactly as
 *   `reinterpretAsFloat64(unhex(…))`.
 * - booleans: 1 or 0; null: NULL; arrays: `[…]` of literals.
 *
 * The output is also valid SQL for current ClickHouse releases.
 */
export function sqlLiteral(value: SqlValue): string {
  if (typeof value === 'string') return `'${value.replace(NEEDS_ESCAPE, escapeChar)}'`;
  if (typeof value === 'number') return numberLiteral(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value === null) return 'NULL';
  if (Array.isArray(value)) return `[${value.map(sqlLiteral).join(', ')}]`;
  throw new TypeError(`sqlLiteral: unsupported value of type ${typeof value}`);
}

function escapeChar(char: string): string {
  if (char === '\\') return '\\\\';
  if (char === "'") return "\\'";
  return `\\x${char.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`;
}

function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`sqlLiteral: ${value} is not a finite number`);
  if (value === 0) return '0';
  if (Math.abs(value) >= 1e-300) return String(value);
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleLE(value);
  return `reinterpretAsFloat64(unhex('${bytes.toString('hex').toUpperCase()}'))`;
}

/** Names the adapter writes into SQL unquoted (database, cluster, tables): checked, never escaped. */
export const SQL_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** `(a, b, …)` of literals for `IN`. */
export function inList(values: readonly string[]): string {
  return `(${values.map(sqlLiteral).join(', ')})`;
}
