import { describe, expect, it } from 'vitest';
import { namedInputs, parameterNames } from './input-names.js';

describe('parameterNames', () => {
  it.each([
    [
      'function',
      function f(a: number, b = 2, ...rest: number[]) {
        return [a, b, rest];
      },
      ['a', 'b', 'rest'],
    ],
    ['arrow', (x: number, y: number) => x + y, ['x', 'y']],
    ['single arrow', ((q: string) => q) as (q: string) => string, ['q']],
    [
      'async',
      async function g(query: string, options = { k: ')' }) {
        return [query, options];
      },
      ['query', 'options'],
    ],
    ['destructured', ({ a }: { a: number }, [b]: number[]) => a + (b ?? 0), [undefined, undefined]],
    ['native', Math.max, []],
    [
      'bound',
      function h(this: unknown, a: number) {
        return a;
      }.bind(null),
      [],
    ],
  ] as const)('%s', (_label, fn, expected) => {
    expect(parameterNames(fn as (...args: never[]) => unknown).map((p) => p.name)).toEqual(expected);
  });
});

describe('namedInputs', () => {
  const params = parameterNames(function f(query: string, k: number, ...filters: string[]) {
    return [query, k, filters];
  });
  it('names positions, groups rest parameters, falls back to argN', () => {
    expect(namedInputs(params, ['q', 3, 'a', 'b'])).toEqual({ query: 'q', k: 3, filters: ['a', 'b'] });
    expect(namedInputs([], [1, 2])).toEqual({ arg0: 1, arg1: 2 });
  });
  it('records a lone plain object bound to a destructured parameter as is', () => {
    const destructured = parameterNames(({ a, b }: { a: number; b: number }) => a + b);
    expect(namedInputs(destructured, [{ a: 1, b: 2 }])).toEqual({ a: 1, b: 2 });
  });
});
