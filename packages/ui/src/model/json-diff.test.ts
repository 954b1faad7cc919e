import { describe, expect, it } from 'vitest';
import { formatPath, jsonDiff } from './json-diff.js';

describe('jsonDiff', () => {
  it('reports changed leaves, added and removed keys and items in key order', () => {
    const diff = jsonDiff({ a: 1, b: { c: [1, 2, 3] }, d: 'x' }, { a: 2, b: { c: [1, 2] }, e: true });
    expect(diff.map((d) => [formatPath(d.path), d.kind])).toEqual([
      ['a', 'changed'],
      ['b.c[2]', 'removed'],
      ['d', 'removed'],
      ['e', 'added'],
    ]);
  });

  it('finds nothing between equal values and one change for different shapes', () => {
    expect(jsonDiff({ x: [1, { y: null }] }, { x: [1, { y: null }] })).toEqual([]);
    expect(jsonDiff({ x: [1] }, { x: { 0: 1 } })).toEqual([
      { path: ['x'], kind: 'changed', before: [1], after: { 0: 1 } },
    ]);
  });

  it('stops at the limit', () => {
    const a = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
    expect(jsonDiff(a, {}, 10)).toHaveLength(10);
  });
});
