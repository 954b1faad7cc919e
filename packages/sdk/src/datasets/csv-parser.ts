import type { DatasetParseProblem } from './errors/index.js';

/** A parsed CSV record and the physical line it starts on (1-based). */
export interface CsvRecord {
  fields: string[];
  line: number;
}

enum State {
  FieldStart,
  Unquoted,
  Quoted,
  /** Saw `"` inside a quoted field: either `""` (an escaped quote) or the closing quote. */
  QuoteInQuoted,
  /** The current record is malformed; skip to the end of its physical line. */
  Skipping,
}

/**
 * An incremental RFC 4180 parser: `push()` text in chunks of any size (a chunk
 * may end mid-field, mid-quote or between `\r` and `\n`), then `end()`.
 * Records end at CRLF, LF or a lone CR; quoted fields may hold commas, `""`
 * and line breaks. Blank lines are skipped. A malformed record is reported
 * with the line it starts on and skipped; parsing resumes on the next line,
 * so one bad record does not hide the ones after it.
 */
export class CsvParser {
  readonly #delimiter: string;
  readonly #onRecord: (record: CsvRecord) => void;
  readonly #onProblem: (problem: DatasetParseProblem) => void;
  #state = State.FieldStart;
  #fields: string[] = [];
  #field = '';
  /** Physical line of the next character. */
  #line = 1;
  #recordLine = 1;
  /** Characters consumed by the current record (0 → a blank line). */
  #recordChars = 0;
  /** The previous chunk ended on `\r`: a leading `\n` of the next chunk belongs to it. */
  #pendingCr = false;
  #atStart = true;

  constructor(options: {
    delimiter: string;
    onRecord: (record: CsvRecord) => void;
    onProblem: (problem: DatasetParseProblem) => void;
  }) {
    this.#delimiter = options.delimiter;
    this.#onRecord = options.onRecord;
    this.#onProblem = options.onProblem;
  }

  push(chunk: string): void {
    let i = 0;
    if (this.#atStart && chunk.length > 0) {
      this.#atStart = false;
      if (chunk.charCodeAt(0) === 0xfeff) i = 1; // byte-order mark
    }
    if (this.#pendingCr && i < chunk.length) {
      this.#pendingCr = false;
      if (chunk[i] === '\n') {
        i++;
        if (this.#state === State.Quoted) this.#field += '\n';
      }
    }
    for (; i < chunk.length; i++) {
      const c = chunk[i] as string;
      if (c === '\r' || c === '\n') {
        // CRLF is one line break; the LF may arrive in the next chunk.
        let lineBreak = c;
        if (c === '\r') {
          if (i + 1 < chunk.length) {
            if (chunk[i + 1] === '\n') {
              i++;
              lineBreak = '\r\n';
            }
          } else {
            this.#pendingCr = true;
          }
        }
        this.#newline(lineBreak);
        continue;
      }
      if (this.#recordChars === 0) this.#recordLine = this.#line;
      this.#recordChars++;
      switch (this.#state) {
        case State.FieldStart:
          if (c === '"') this.#state = State.Quoted;
          else if (c === this.#delimiter) this.#fields.push('');
          else {
            this.#field = c;
            this.#state = State.Unquoted;
          }
          break;
        case State.Unquoted:
          if (c === this.#delimiter) this.#endField();
          else if (c === '"')
            this.#fail('a quote inside an unquoted field (quote the whole field and write "" for a quote)');
          else this.#field += c;
          break;
        case State.Quoted:
          if (c === '"') this.#state = State.QuoteInQuoted;
          else this.#field += c;
          break;
        case State.QuoteInQuoted:
          if (c === '"') {
            this.#field += '"';
            this.#state = State.Quoted;
          } else if (c === this.#delimiter) this.#endField();
          else
            this.#fail(
              `unexpected ${JSON.stringify(c)} after a closing quote (write "" for a quote inside a quoted field)`,
            );
          break;
        case State.Skipping:
          break;
      }
    }
  }

  /** Ends the input: emits the last record, or reports an unterminated quote. */
  end(): void {
    if (this.#state === State.Quoted) {
      this.#onProblem({ line: this.#recordLine, reason: 'a quoted field is never closed (missing ")' });
      this.#reset();
      return;
    }
    if (this.#state === State.Skipping) this.#reset();
    else if (this.#recordChars > 0) this.#emit();
  }

  #newline(lineBreak: string): void {
    this.#line++;
    if (this.#state === State.Quoted) {
      // A line break inside quotes is part of the field, kept as written.
      this.#field += lineBreak;
      return;
    }
    if (this.#state === State.Skipping) {
      this.#reset();
      return;
    }
    if (this.#recordChars === 0) return; // blank line
    this.#emit();
  }

  #endField(): void {
    this.#fields.push(this.#field);
    this.#field = '';
    this.#state = State.FieldStart;
  }

  #emit(): void {
    this.#endField();
    const record = { fields: this.#fields, line: this.#recordLine };
    this.#reset();
    this.#onRecord(record);
  }

  #fail(reason: string): void {
    this.#onProblem({ line: this.#recordLine, reason });
    this.#state = State.Skipping;
  }

  #reset(): void {
    this.#fields = [];
    this.#field = '';
    this.#recordChars = 0;
    this.#state = State.FieldStart;
  }
}
