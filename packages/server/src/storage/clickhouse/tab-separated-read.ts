/** What each backslash escape of ClickHouse's TabSeparated output stands for. */
const UNESCAPES: Readonly<Record<string, string>> = {
  t: '\t',
  n: '\n',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '0': '\0',
  b: '\b',
  f: '\f',
  a: '\x07',
  v: '\v',
  e: '\x1b',
};

/**
 * A String field of ClickHouse's TabSeparated output as it was stored: its
 * backslash escapes (`\t`, `\n`, `\\`, …) undone. Fields without a
 * backslash (ids, base64 values, most names) come back as they are.
 */
export function unescapeTabSeparated(field: string): string {
  if (!field.includes('\\')) return field;
  return field.replace(/\\(.)/gs, (_escape, c: string) => UNESCAPES[c] ?? c);
}
