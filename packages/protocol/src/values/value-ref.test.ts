import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrayDigest } from '../digest/array-digest.js';
import { digestBytes } from '../digest/digest.js';
import { encodeMsgpack } from '../msgpack/index.js';
import { collectValueRefs, expandValueRefs, isValueRef, valueRef } from './value-ref.js';

const digest = digestBytes('x');

describe('value markers', () => {
  it('recognizes only the exact marker shape', () => {
    expect(isValueRef(valueRef(digest))).toBe(true);
    expect(isValueRef({ _weft: 'value', digest, extra: 1 })).toBe(false);
    expect(isValueRef({ _weft: 'value', digest: 'short' })).toBe(false);
    expect(isValueRef({ _weft: 'truncated', digest })).toBe(false);
    expect(isValueRef([valueRef(digest)])).toBe(false);
  });

  it('collects and expands nested markers, leaving unknown ones and unmarked containers as they are', () => {
    const other = digestBytes('y');
    const value = { a: [1, valueRef(digest)], b: { c: valueRef(other) }, d: { e: 1 } };
    expect([...collectValueRefs(value, new Set())].sort()).toEqual([digest, other].sort());
    const expanded = expandValueRefs(value, new Map([[digest, 'full']])) as typeof value;
    expect(expanded).toEqual({ a: [1, 'full'], b: { c: valueRef(other) }, d: { e: 1 } });
    expect(expanded.d).toBe(value.d);
    expect(value.a[1]).toEqual(valueRef(digest));
  });

  it('keeps a "__proto__" key as data when expanding', () => {
    const value = JSON.parse(`{"__proto__": {"_weft": "value", "digest": "${digest}"}}`);
    const expanded = expandValueRefs(value, new Map([[digest, 1]])) as Record<string, unknown>;
    expect(Object.getPrototypeOf(expanded)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(expanded, '__proto__')?.value).toBe(1);
  });
});

describe('arrayDigest', () => {
  it('is the same from any prefix, and differs when an item or the order differs', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 8 }), fc.nat(), (values, cut) => {
        const items = values.map((v) => encodeMsgpack(v));
        const k = cut % (items.length + 1);
        const whole = arrayDigest(undefined, items);
        expect(
          arrayDigest(k === 0 ? undefined : arrayDigest(undefined, items.slice(0, k)), items.slice(k)),
        ).toBe(whole);
        if (items.length > 1 && digestBytes(items[0]!) !== digestBytes(items[1]!)) {
          expect(arrayDigest(undefined, [items[1]!, items[0]!, ...items.slice(2)])).not.toBe(whole);
        }
      }),
      { numRuns: 200 },
    );
  });
});
