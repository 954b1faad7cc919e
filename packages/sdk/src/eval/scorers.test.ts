import { describe, expect, it } from 'vitest';
import { ScorerInputError } from './errors/index.js';
import { contains, exactMatch, jsonValid, numericTolerance } from './scorers.js';

describe('built-in scorers', () => {
  it('are named functions, so a scorer list names its scores', () => {
    expect([exactMatch(), contains(), jsonValid(), numericTolerance()].map((s) => s.name)).toEqual([
      'exactMatch',
      'contains',
      'jsonValid',
      'numericTolerance',
    ]);
  });

  it('exactMatch compares text (numbers as text), honours case and trim, and JSON by value', () => {
    const s = exactMatch();
    expect(s({ output: 'Paris', row: { expected: 'Paris' } })).toBe(true);
    expect(s({ output: 'paris', row: { expected: 'Paris' } })).toBe(false);
    expect(s({ output: 4, row: { expected: '4' } })).toBe(true);
    expect(s({ output: { a: 1, b: [2] }, row: { expected: { b: [2], a: 1 } } })).toBe(true);
    expect(s({ output: { a: 1 }, row: { expected: { a: 2 } } })).toBe(false);
    expect(
      exactMatch({ caseSensitive: false, trim: true })({ output: ' PARIS\n', row: { expected: 'paris' } }),
    ).toBe(true);
    expect(exactMatch({ column: 'answer' })({ output: 'x', row: { answer: 'x' } })).toBe(true);
  });

  it('contains finds the expected text, or all of an array of texts', () => {
    expect(contains()({ output: 'The capital is Paris.', row: { expected: 'Paris' } })).toBe(true);
    expect(contains()({ output: 'The capital is paris.', row: { expected: 'Paris' } })).toBe(false);
    expect(contains({ caseSensitive: false })({ output: 'PARIS', row: { expected: 'paris' } })).toBe(true);
    expect(contains()({ output: 'red green', row: { expected: ['red', 'green'] } })).toBe(true);
    expect(contains()({ output: 'red', row: { expected: ['red', 'blue'] } })).toBe(false);
    expect(contains()({ output: { city: 'Paris' }, row: { expected: 'Paris' } })).toBe(true);
  });

  it('jsonValid accepts parseable strings and serializable values, with required keys', () => {
    const s = jsonValid();
    expect(s({ output: '{"a":1}', row: {} })).toBe(true);
    expect(s({ output: '{"a":', row: {} })).toBe(false);
    expect(s({ output: { a: 1 }, row: {} })).toBe(true);
    expect(s({ output: { n: 1n }, row: {} })).toBe(false);
    expect(s({ output: undefined, row: {} })).toBe(false);
    const keyed = jsonValid({ requiredKeys: ['answer'] });
    expect(keyed({ output: '{"answer":2}', row: {} })).toBe(true);
    expect(keyed({ output: '{"other":2}', row: {} })).toBe(false);
    expect(keyed({ output: '[1]', row: {} })).toBe(false);
  });

  it('numericTolerance passes within the absolute or relative tolerance', () => {
    expect(numericTolerance()({ output: 3, row: { expected: '3' } })).toBe(true);
    expect(numericTolerance()({ output: 3.0001, row: { expected: 3 } })).toBe(false);
    expect(numericTolerance({ absoluteTolerance: 0.01 })({ output: '3.005', row: { expected: 3 } })).toBe(
      true,
    );
    expect(numericTolerance({ relativeTolerance: 0.1 })({ output: 105, row: { expected: 100 } })).toBe(true);
    expect(numericTolerance({ relativeTolerance: 0.1 })({ output: 111, row: { expected: 100 } })).toBe(false);
    expect(numericTolerance()({ output: 'about three', row: { expected: 3 } })).toBe(false);
  });

  it('throws a typed error naming the column when the row lacks what the scorer needs', () => {
    for (const [scorer, row] of [
      [exactMatch(), {}],
      [contains(), { expected: { nested: true } }],
      [numericTolerance(), { expected: 'n/a' }],
    ] as const) {
      let caught: unknown;
      try {
        scorer({ output: 'x', row });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ScorerInputError);
      expect((caught as ScorerInputError).column).toBe('expected');
    }
  });

  it('rejects bad options with a typed error naming the option', () => {
    expect(() => numericTolerance({ absoluteTolerance: -1 })).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_OPTIONS', path: 'absoluteTolerance' }),
    );
    expect(() => contains({ colum: 'x' } as never)).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_OPTIONS' }),
    );
  });
});
