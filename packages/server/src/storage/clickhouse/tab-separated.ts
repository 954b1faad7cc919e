/** A field of a TabSeparated row: text, a finite number, or an array of text. */
export type TabSeparatedValue = string | number | readonly string[];

/** Characters TabSeparated (and quoted array items) write as backslash escapes. */
const SPECIAL = /[\t\n\r\\'\0\b\f]/;
const SPECIAL_ALL = /[\t\n\r\\'\0\b\f]/g;
const ESCAPES: Readonly<Record<string, string>> = {
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\\': '\\\\',
  "'": "\\'",
  '\0': '\\0',
  '\b': '\\b',
  '\f': '\\f',
};

/** `text` with the characters that would cut a field or a row escaped (`\t`, `\n`, `\\`, `\'`, …). */
function escaped(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (c) => ESCAPES[c] as string) : text;
}

/**
 * One field as ClickHouse's TabSeparated input reads it, on every server
 * from 18.16 on: escaped text; a number as JavaScript writes it (the
 * shortest form that reads back to the same double, as JSON does); an
 * array as `['a','b']`, items quoted and escaped.
 */
function field(value: TabSeparatedValue, column: string): string {
  if (typeof value === 'string') return escaped(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${column} is ${value}, not a finite number`);
    return String(value);
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += `${i === 0 ? '' : ','}'${escaped(value[i] as string)}'`;
    return `${out}]`;
  }
  throw new TypeError(`${column} is missing from a row`);
}

/** How a column's numbers are written instead of as numbers (e.g. {@link dateTime64Text}). */
export type NumberText = (value: number) => string;

/**
 * Microseconds since the epoch as the text a `DateTime64(6, 'UTC')` column
 * reads exactly: `YYYY-MM-DD hh:mm:ss.ffffff`. (A bare number is read by
 * its count of digits — 16 as microseconds, 10 as seconds, `0` not at all —
 * so numbers are no way to send a time in TabSeparated.)
 */
export function dateTime64Text(micros: number): string {
  const seconds = Math.floor(micros / 1_000_000);
  const fraction = String(micros - seconds * 1_000_000).padStart(6, '0');
  const iso = new Date(seconds * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${fraction}`;
}

/**
 * The body of an `INSERT … (columns) FORMAT TabSeparated`: one line per
 * row, its `columns` in order. Every row must hold every column (TSV has no
 * "absent, use the default"). Cheaper than JSONEachRow on both sides: no
 * key names per row, no JSON quoting of the base64 values (which need no
 * escaping), and ClickHouse parses it faster. `numberTexts` writes the
 * numbers of some columns otherwise (times into `DateTime64`).
 */
export function tabSeparated(
  rows: readonly Readonly<Record<string, unknown>>[],
  columns: readonly string[],
  numberTexts: Readonly<Record<string, NumberText>> = {},
): string {
  const texts = columns.map((column) => numberTexts[column]);
  let body = '';
  for (const row of rows) {
    let line = '';
    for (let c = 0; c < columns.length; c++) {
      const column = columns[c] as string;
      const value = row[column] as TabSeparatedValue;
      const text = texts[c];
      const written = text !== undefined && typeof value === 'number' ? text(value) : field(value, column);
      line += c === 0 ? written : `\t${written}`;
    }
    body += `${line}\n`;
  }
  return body;
}
