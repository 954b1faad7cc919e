import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { z } from 'zod';
import { CsvParser, type CsvRecord } from './csv-parser.js';
import { describeValue, isPlainObject } from './describe-value.js';
import {
  DatasetParseError,
  type DatasetParseProblem,
  InvalidDatasetRowsError,
  InvalidDatasetSourceError,
} from './errors/index.js';
import { JsonlParser } from './jsonl-parser.js';

/** One dataset row: column name → value. */
export type Row = Record<string, unknown>;

/** Text formats rows can be loaded from. */
export type RowFormat = 'jsonl' | 'csv';

/** Options of the CSV format. */
export interface CsvOptions {
  /**
   * Field separator, one character.
   * @default ',' (`'\t'` for `.tsv` files)
   */
  delimiter?: string;
}

/**
 * Where rows come from: an array of plain objects, a file (format from the
 * extension `.jsonl`/`.ndjson`/`.csv`/`.tsv` unless given), or text in memory.
 */
export type RowSource =
  | readonly unknown[]
  | ({ path: string; format?: RowFormat } & CsvOptions)
  | ({ text: string; format: RowFormat } & CsvOptions);

const delimiterSchema = z
  .string()
  .length(1)
  .refine((d) => d !== '"' && d !== '\n' && d !== '\r', 'must not be a quote or a line break');

/**
 * Loads dataset rows. Files are streamed (a 200 MB file is never one string),
 * and every malformed line is reported at once in a {@link DatasetParseError}
 * whose `problems` name each line and what is wrong with it.
 *
 * @throws {DatasetParseError} a line is not valid JSONL / CSV.
 * @throws {InvalidDatasetRowsError} an array element is not a plain object.
 * @throws {InvalidDatasetSourceError} unknown format, bad delimiter, or the file cannot be read.
 */
export async function loadRows(source: RowSource): Promise<Row[]> {
  if (Array.isArray(source)) return validateRows(source);
  const src = source as Exclude<RowSource, readonly unknown[]>;
  if ('text' in src) {
    return src.format === 'csv' ? parseCsv(src.text, src) : parseJsonl(src.text);
  }
  if (!('path' in src) || typeof src.path !== 'string') {
    throw new InvalidDatasetSourceError(
      'A row source is an array of objects, { path } or { text, format }; got an object with neither `path` nor `text`.',
    );
  }
  const ext = extname(src.path).toLowerCase();
  const format = src.format ?? formatOf(ext, src.path);
  const delimiter = src.delimiter ?? (ext === '.tsv' ? '\t' : ',');
  const sink = format === 'csv' ? csvSink(src.path, delimiter) : jsonlSink(src.path);
  try {
    for await (const chunk of createReadStream(src.path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
      sink.push(chunk as string);
    }
  } catch (error) {
    throw new InvalidDatasetSourceError(
      `Cannot read dataset file ${src.path}: ${(error as Error).message}. Check the path and its permissions.`,
      error,
    );
  }
  return sink.end();
}

/**
 * Parses JSONL text: one JSON object per line, blank lines skipped.
 * @throws {DatasetParseError} naming every malformed line.
 */
export function parseJsonl(text: string, options: { source?: string } = {}): Row[] {
  const sink = jsonlSink(options.source ?? '<text>');
  sink.push(text);
  return sink.end();
}

/**
 * Parses RFC 4180 CSV text. The first record is the header: its fields name
 * the columns, and every later record must have as many fields. Values stay
 * strings (CSV has no types); blank lines are skipped.
 * @throws {DatasetParseError} naming every malformed line.
 */
export function parseCsv(text: string, options: CsvOptions & { source?: string } = {}): Row[] {
  const sink = csvSink(options.source ?? '<text>', options.delimiter ?? ',');
  sink.push(text);
  return sink.end();
}

/**
 * Checks that every element is a plain object and returns them as rows (the
 * same objects, not copies).
 * @throws {InvalidDatasetRowsError} listing every element that is not.
 */
export function validateRows(rows: readonly unknown[]): Row[] {
  const bad = [];
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index];
    if (!isPlainObject(row)) bad.push({ index, got: describeValue(row) });
  }
  if (bad.length > 0) throw new InvalidDatasetRowsError(bad);
  return rows as Row[];
}

interface Sink {
  push(chunk: string): void;
  end(): Row[];
}

function jsonlSink(source: string): Sink {
  const rows: Row[] = [];
  const problems: DatasetParseProblem[] = [];
  const parser = new JsonlParser({ onRow: (row) => rows.push(row), onProblem: (p) => problems.push(p) });
  return {
    push: (chunk) => parser.push(chunk),
    end: () => {
      parser.end();
      if (problems.length > 0) throw new DatasetParseError(source, 'jsonl', problems);
      return rows;
    },
  };
}

function csvSink(source: string, delimiter: string): Sink {
  const parsed = delimiterSchema.safeParse(delimiter);
  if (!parsed.success) {
    throw new InvalidDatasetSourceError(
      `CSV \`delimiter\` must be one character other than a quote or a line break, got ${JSON.stringify(delimiter)}.`,
    );
  }
  const rows: Row[] = [];
  const problems: DatasetParseProblem[] = [];
  let header: string[] | undefined;
  const onRecord = ({ fields, line }: CsvRecord): void => {
    if (header === undefined) {
      header = fields;
      const seen = new Set<string>();
      for (const [i, name] of fields.entries()) {
        if (name === '') problems.push({ line, reason: `header column ${i + 1} has no name` });
        else if (seen.has(name))
          problems.push({ line, reason: `header names column ${JSON.stringify(name)} twice` });
        seen.add(name);
      }
      return;
    }
    if (fields.length !== header.length) {
      problems.push({
        line,
        reason: `expected ${header.length} fields (as in the header), got ${fields.length}`,
      });
      return;
    }
    const row: Row = {};
    for (let i = 0; i < header.length; i++) row[header[i] as string] = fields[i];
    rows.push(row);
  };
  const parser = new CsvParser({ delimiter, onRecord, onProblem: (p) => problems.push(p) });
  return {
    push: (chunk) => parser.push(chunk),
    end: () => {
      parser.end();
      if (problems.length > 0) {
        problems.sort((a, b) => a.line - b.line);
        throw new DatasetParseError(source, 'csv', problems);
      }
      return rows;
    },
  };
}

function formatOf(ext: string, path: string): RowFormat {
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.csv' || ext === '.tsv') return 'csv';
  throw new InvalidDatasetSourceError(
    `Cannot tell the format of ${path} from its extension; name it .jsonl/.ndjson/.csv/.tsv or pass { format: 'jsonl' | 'csv' }.`,
  );
}
