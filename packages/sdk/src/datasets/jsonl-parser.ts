import { describeValue, isPlainObject } from './describe-value.js';
import type { DatasetParseProblem } from './errors/index.js';

/**
 * An incremental JSONL parser: `push()` text in chunks of any size, then
 * `end()`. Each non-blank line must be one JSON object (a row). A bad line is
 * reported with its 1-based line number and skipped, so every bad line of a
 * file is found in one pass.
 */
export class JsonlParser {
  readonly #onRow: (row: Record<string, unknown>) => void;
  readonly #onProblem: (problem: DatasetParseProblem) => void;
  #carry = '';
  #line = 0;

  constructor(options: {
    onRow: (row: Record<string, unknown>) => void;
    onProblem: (problem: DatasetParseProblem) => void;
  }) {
    this.#onRow = options.onRow;
    this.#onProblem = options.onProblem;
  }

  push(chunk: string): void {
    let text = this.#carry + chunk;
    if (this.#line === 0 && this.#carry === '' && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let start = 0;
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      this.#parseLine(text.slice(start, nl));
      start = nl + 1;
    }
    this.#carry = text.slice(start);
  }

  end(): void {
    if (this.#carry !== '') this.#parseLine(this.#carry);
    this.#carry = '';
  }

  #parseLine(raw: string): void {
    this.#line++;
    const text = raw.trim(); // also drops the \r of CRLF
    if (text === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.#onProblem({ line: this.#line, reason: `invalid JSON (${(error as Error).message})` });
      return;
    }
    if (!isPlainObject(value)) {
      this.#onProblem({
        line: this.#line,
        reason: `expected a JSON object (one row per line), got ${describeValue(value)}`,
      });
      return;
    }
    this.#onRow(value);
  }
}
