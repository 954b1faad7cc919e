import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WeftError } from '../errors/weft-error.js';
import { canonicalJson } from './canonical.js';
import { digestBytes, digestValue, tableDigest } from './digest.js';

/** JSON-like values: what the SDK's sanitizer produces. */
const jsonLike = fc.jsonValue() as fc.Arbitrary<unknown>;

/** Same value, object keys inserted in another (reversed or shuffled) order. */
function reorder(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => reorder(v, seed + i));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const shuffled = entries
    .map(([k, v], i) => ({ k, v, w: (Math.imul(i + 1, 2654435761) ^ seed) >>> 0 }))
    .sort((a, b) => a.w - b.w);
  const out: Record<string, unknown> = {};
  // defineProperty, not assignment: a "__proto__" key must stay a data member.
  for (const { k, v } of shuffled) {
    Object.defineProperty(out, k, {
      value: reorder(v, seed + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Every path to a leaf in a JSON-like value. */
function leafPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leafPaths(v, [...path, i]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => leafPaths(v, [...path, k]));
  }
  return [path];
}

function changeLeaf(value: unknown, path: (string | number)[]): unknown {
  if (path.length === 0) {
    if (typeof value === 'string') return `${value}x`;
    if (typeof value === 'number') return value === 0 ? 1 : -value; // +1 is a no-op past 2^53
    if (typeof value === 'boolean') return !value;
    return 0; // null
  }
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  Object.defineProperty(copy, head, {
    value: changeLeaf(copy[head], rest),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

describe('canonical encoding and digests', () => {
  it('gives equal digests for equal values whatever the key order', () => {
    fc.assert(
      fc.property(jsonLike, fc.integer(), (value, seed) => {
        expect(digestValue(reorder(value, seed))).toBe(digestValue(value));
      }),
      { numRuns: 300 },
    );
  });

  it('gives a different digest when any leaf differs', () => {
    fc.assert(
      fc.property(
        jsonLike.filter((v) => leafPaths(v).length > 0),
        fc.nat(),
        (value, pick) => {
          const paths = leafPaths(value);
          const path = paths[pick % paths.length]!;
          expect(digestValue(changeLeaf(value, path))).not.toBe(digestValue(value));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('sorts keys, drops undefined members and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [true, null, undefined], c: undefined, é: 'x' })).toBe(
      '{"a":[true,null,null],"b":1,"é":"x"}',
    );
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson('\ud800')).toBe('"\\ud800"');
  });

  it('keeps a "__proto__" key as data, in sorted position', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":""}'))).toBe('{"__proto__":"","b":1}');
  });

  it('is a 43-character base64url SHA-256', () => {
    expect(digestValue({ a: 1 })).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(digestBytes('{"a":1}')).toBe(digestValue({ a: 1 }));
  });

  it('derives table digests from row digests in order', () => {
    const a = digestValue({ q: 1 });
    const b = digestValue({ q: 2 });
    expect(tableDigest([a, b])).not.toBe(tableDigest([b, a]));
    expect(tableDigest([a, b])).toBe(tableDigest([a, b]));
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['bigint', 1n],
    ['function', () => 1],
    ['symbol', Symbol('s')],
    ['class instance', new Date(0)],
    ['binary', new Uint8Array(2)],
    ['nested non-plain', { a: [{ b: new Map() }] }],
  ])('refuses %s with WEFT_NOT_CANONICAL and names where it is', (_label, value) => {
    let error: unknown;
    try {
      canonicalJson(value);
    } catch (e) {
      error = e;
    }
    expect(WeftError.isInstance(error)).toBe(true);
    expect((error as WeftError).code).toBe('WEFT_NOT_CANONICAL');
  });

  it('names the path of the offending value', () => {
    expect(() => canonicalJson({ a: [1, { b: Number.NaN }] })).toThrow(/a\.1\.b/);
  });

  it('refuses cycles and excessive depth instead of overflowing the stack', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(expect.objectContaining({ code: 'WEFT_NOT_CANONICAL' }));
    let deep: unknown = 1;
    for (let i = 0; i < 5_000; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(expect.objectContaining({ code: 'WEFT_NOT_CANONICAL' }));
  });

  it('accepts repeated (non-cyclic) references', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});
