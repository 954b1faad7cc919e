import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ClickHouseConnection } from '../../src/storage/clickhouse/clickhouse-connection.js';
import { sqlLiteral } from '../../src/storage/clickhouse/sql-literal.js';

/** What a JavaScript string is once sent as UTF-8: lone surrogates become U+FFFD. */
const asUtf8 = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

const HOSTILE = [
  "'",
  "\\'",
  "\\\\'",
  "' OR 1 = 1 --",
  "x' OR name != 'x",
  "'; DROP TABLE lit.victim; --",
  '\\x27 OR 1 --',
  "\u0000' OR 1 --",
  "a\nb\r\nc\t'",
  '`name`',
  '"',
  '/* comment',
  '-- comment',
  '{param:String}',
  '$1 ?',
  'é ü ñ 日本語 😀',
  '\ud800 lone surrogate',
  "'".repeat(10_000),
  '\\'.repeat(10_001),
  'x'.repeat(1_000_000),
];

describe('sqlLiteral against a real ClickHouse', () => {
  let connection: ClickHouseConnection;
  beforeAll(async () => {
    connection = new ClickHouseConnection({
      endpoint: { kind: 'http', hosts: [`http://${inject('clickhouseHttp')}`] },
      username: 'default',
      password: '',
      requestTimeoutMs: 30_000,
      retryAfterMs: 1_000,
      settings: {},
    });
    await connection.commandOnEveryHost('CREATE DATABASE IF NOT EXISTS lit');
    await connection.commandOnEveryHost(
      'CREATE TABLE IF NOT EXISTS lit.victim (name String) ENGINE = MergeTree ORDER BY name',
    );
    await connection.insert('lit.victim', [{ name: 'only' }]);
  });
  afterAll(() => connection.close());

  /** Sends values through literals in one query and returns what ClickHouse parsed. */
  async function roundTrip<T>(values: readonly T[], literal: (v: T) => string): Promise<unknown[]> {
    const [row] = await connection.rows<{ v: unknown[] }>(`SELECT [${values.map(literal).join(', ')}] AS v`);
    return row?.v ?? [];
  }

  it('reads back every hostile string exactly, and none matches or breaks the query', async () => {
    expect(await roundTrip(HOSTILE, sqlLiteral)).toEqual(HOSTILE.map(asUtf8));
    for (const value of HOSTILE) {
      const rows = await connection.rows<{ n: string }>(
        `SELECT count() AS n FROM lit.victim WHERE name = ${sqlLiteral(value)}`,
      );
      expect(Number(rows[0]?.n)).toBe(0);
    }
    const still = await connection.rows<{ name: string }>('SELECT name FROM lit.victim');
    expect(still).toEqual([{ name: 'only' }]);
  });

  it('round-trips arbitrary strings: any code unit, control characters, quotes, backslashes', async () => {
    const hostileChars = fc.constantFrom(
      "'",
      '\\',
      '\0',
      '\n',
      '\r',
      '"',
      '`',
      ';',
      '-',
      '/',
      '*',
      'x',
      'é',
      '😀',
    );
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({
        unit: fc.oneof(hostileChars, fc.string({ unit: 'grapheme', maxLength: 1 })),
        maxLength: 200,
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 50 }), async (values) => {
        expect(await roundTrip(values, sqlLiteral)).toEqual(values.map(asUtf8));
      }),
      { numRuns: 60 },
    );
  });

  it('round-trips every finite double bit-exactly, subnormals included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.double({ noNaN: true, noDefaultInfinity: true }),
            fc.constantFrom(2 ** 53 + 2, 1.2345678901234568e20, 2 ** 64, -(2 ** 63)),
          ),
          { minLength: 1, maxLength: 200 },
        ),
        async (values) => {
          // toFloat64: an integral literal parses as an integer type, which an array of floats would not accept.
          const back = (await roundTrip(values, (v) => `toFloat64(${sqlLiteral(v)})`)).map(Number);
          expect(back).toEqual(values.map((v) => (Object.is(v, -0) ? 0 : v)));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('sqlLiteral', () => {
  it('escapes quotes, backslashes and control characters, and nothing else', () => {
    expect(sqlLiteral("it's")).toBe("'it\\'s'");
    expect(sqlLiteral('a\\b')).toBe("'a\\\\b'");
    expect(sqlLiteral('\0\n\x7f')).toBe("'\\x00\\x0A\\x7F'");
    expect(sqlLiteral('日本')).toBe("'日本'");
  });

  it('writes numbers, booleans, null and arrays', () => {
    expect(sqlLiteral(42)).toBe('42');
    expect(sqlLiteral(-1.5)).toBe('-1.5');
    expect(sqlLiteral(true)).toBe('1');
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(['a', 1])).toBe("['a', 1]");
  });

  it('refuses values that have no literal', () => {
    expect(() => sqlLiteral(Number.NaN)).toThrow(TypeError);
    expect(() => sqlLiteral(Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(() => sqlLiteral({} as never)).toThrow(TypeError);
  });

  it('never leaves an unescaped quote or a raw control character in a string literal', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const inner = sqlLiteral(value).slice(1, -1);
        // Every quote is preceded by an odd run of backslashes (it is escaped).
        for (const match of inner.matchAll(/(\\*)'/g)) expect((match[1] as string).length % 2).toBe(1);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
        expect(inner).not.toMatch(/[\x00-\x1f\x7f]/);
      }),
    );
  });
});
