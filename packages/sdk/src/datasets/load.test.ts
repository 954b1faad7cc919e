import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CsvParser, type CsvRecord } from './csv-parser.js';
import { DatasetParseError, InvalidDatasetRowsError, InvalidDatasetSourceError } from './errors/index.js';
import { loadRows, parseCsv, parseJsonl, validateRows } from './load.js';

function parseError(fn: () => unknown): DatasetParseError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DatasetParseError) return error;
    throw error;
  }
  throw new Error('expected a DatasetParseError');
}

describe('parseJsonl', () => {
  it('reads one object per line and skips blank lines', () => {
    expect(parseJsonl('{"a":1}\n\n  \r\n{"a":2,"b":"x"}\r\n')).toEqual([{ a: 1 }, { a: 2, b: 'x' }]);
  });

  it('names the line and what is wrong for each malformed line', () => {
    const error = parseError(() => parseJsonl('{"a":1}\n{"a":\n\n[1,2]\n{"a":3}\n"str"'));
    expect(error.code).toBe('WEFT_DATASET_PARSE');
    expect(error.problems.map((p) => p.line)).toEqual([2, 4, 6]);
    expect(error.problems[0]?.reason).toMatch(/^invalid JSON/);
    expect(error.problems[1]?.reason).toContain('got an array');
    expect(error.problems[2]?.reason).toContain('got a string');
    expect(error.message).toContain('line 2: invalid JSON');
    expect(error.message).toContain('<text>');
  });
});

describe('parseCsv', () => {
  it('maps the header row to column names', () => {
    expect(parseCsv('q,expected\nwhat is 2+2,4\nsky,blue\n')).toEqual([
      { q: 'what is 2+2', expected: '4' },
      { q: 'sky', expected: 'blue' },
    ]);
  });

  it('handles quotes, escaped quotes, embedded delimiters and line breaks (RFC 4180)', () => {
    const text = 'a,b\r\n"x, y","say ""hi"""\r\n"line1\r\nline2",""\r\n,\r\n';
    expect(parseCsv(text)).toEqual([
      { a: 'x, y', b: 'say "hi"' },
      { a: 'line1\r\nline2', b: '' },
      { a: '', b: '' },
    ]);
  });

  it('names the line of a stray quote, a field-count mismatch and an unterminated quote', () => {
    const text = 'a,b\n1,2\nx"y,3\n4,5,6\n7,8\n"open,9\n10,11';
    const error = parseError(() => parseCsv(text));
    expect(error.problems.map((p) => p.line)).toEqual([3, 4, 6]);
    expect(error.problems[0]?.reason).toContain('quote inside an unquoted field');
    expect(error.problems[1]?.reason).toContain('expected 2 fields');
    expect(error.problems[2]?.reason).toContain('never closed');
  });

  it('names a record that continues after a closing quote', () => {
    const error = parseError(() => parseCsv('a\n"ok"\n"bad"x\n"fine"\n'));
    expect(error.problems).toEqual([{ line: 3, reason: expect.stringContaining('after a closing quote') }]);
  });

  it('rejects a header with an empty or duplicated column name', () => {
    const error = parseError(() => parseCsv('a,,a\n1,2,3\n'));
    expect(error.problems.map((p) => p.reason)).toEqual([
      'header column 2 has no name',
      'header names column "a" twice',
    ]);
  });

  it('parses any table the same whatever the chunk boundaries (property)', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r', ' ', 'é') });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((width) =>
          fc.tuple(
            fc.array(fc.array(field, { minLength: width, maxLength: width }), {
              minLength: 1,
              maxLength: 6,
            }),
            fc.array(fc.nat(), { maxLength: 5 }),
          ),
        ),
        ([table, cuts]) => {
          // A record of one empty field is a blank line, which is skipped: not representable.
          fc.pre(table.every((record) => record.length > 1 || record[0] !== ''));
          const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
          const text = table.map((record) => record.map(quote).join(',')).join('\r\n');
          const records: CsvRecord[] = [];
          const parser = new CsvParser({
            delimiter: ',',
            onRecord: (r) => records.push(r),
            onProblem: (p) => {
              throw new Error(`unexpected problem ${p.reason}`);
            },
          });
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          let last = 0;
          for (const point of points) {
            parser.push(text.slice(last, point));
            last = point;
          }
          parser.push(text.slice(last));
          parser.end();
          expect(records.map((r) => r.fields)).toEqual(table);
        },
      ),
    );
  });
});

describe('validateRows', () => {
  it('accepts plain objects and names every element that is not one', () => {
    expect(validateRows([{ a: 1 }, Object.create(null)])).toHaveLength(2);
    try {
      validateRows([{ a: 1 }, [1], null, new Date(0), 'x']);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidDatasetRowsError);
      const e = error as InvalidDatasetRowsError;
      expect(e.code).toBe('WEFT_INVALID_DATASET_ROWS');
      expect(e.rows).toEqual([
        { index: 1, got: 'an array' },
        { index: 2, got: 'null' },
        { index: 3, got: 'a Date instance' },
        { index: 4, got: 'a string' },
      ]);
    }
  });
});

describe('loadRows', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'weft-load-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('streams a JSONL file and names the bad line with the file path', async () => {
    const path = join(dir, 'rows.jsonl');
    const lines = Array.from({ length: 5_000 }, (_, i) => JSON.stringify({ i, text: 'x'.repeat(300) }));
    lines[3_210] = '{"i": 3210, broken';
    await writeFile(path, lines.join('\n'));
    const error = await loadRows({ path }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetParseError);
    expect((error as DatasetParseError).problems.map((p) => p.line)).toEqual([3_211]);
    expect((error as DatasetParseError).message).toContain(path);
  });

  it('reads CSV and TSV files by extension, and text by format', async () => {
    await writeFile(join(dir, 'a.csv'), 'x,y\n1,"2\n3"\n');
    await writeFile(join(dir, 'a.tsv'), 'x\ty\n1\t2\n');
    expect(await loadRows({ path: join(dir, 'a.csv') })).toEqual([{ x: '1', y: '2\n3' }]);
    expect(await loadRows({ path: join(dir, 'a.tsv') })).toEqual([{ x: '1', y: '2' }]);
    expect(await loadRows({ text: '{"k":true}', format: 'jsonl' })).toEqual([{ k: true }]);
    expect(await loadRows([{ k: 1 }])).toEqual([{ k: 1 }]);
  });

  it('rejects an unknown extension, a missing file and a bad delimiter with a typed error', async () => {
    for (const source of [
      { path: join(dir, 'rows.txt') },
      { path: join(dir, 'missing.jsonl') },
      { text: 'a', format: 'csv' as const, delimiter: '"' },
    ]) {
      const error = await loadRows(source).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidDatasetSourceError);
      expect((error as InvalidDatasetSourceError).code).toBe('WEFT_INVALID_DATASET_SOURCE');
    }
  });
});
