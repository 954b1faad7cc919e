import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../digest/index.js';
import { decodeMsgpack, encodeMsgpack } from './msgpack-codec.js';

describe('decodeMsgpack', () => {
  it('keeps an own "__proto__" key as data at any depth, as JSON.parse does, and pollutes nothing', () => {
    const text =
      '{"__proto__":{"polluted":true},"a":[{"__proto__":1,"b":{"__proto__":"x"}}],"c":"__proto__"}';
    const value = JSON.parse(text) as Record<string, unknown>;
    const decoded = decodeMsgpack(encodeMsgpack(value)) as Record<string, unknown>;
    expect(canonicalJson(decoded)).toBe(canonicalJson(value));
    expect(Object.keys(decoded)).toEqual(['__proto__', 'a', 'c']);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect((decoded as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('gives what JSON gives for any JSON value, with or without "__proto__" keys', () => {
    const withProto = fc
      .jsonValue()
      .map((v) => ({ wrapped: v, ...JSON.parse('{"__proto__": {"k": [1, "__proto__"]}}') }));
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), withProto), (value) => {
        const viaJson = JSON.parse(JSON.stringify(value)) as unknown;
        expect(canonicalJson(decodeMsgpack(encodeMsgpack(viaJson)))).toBe(canonicalJson(viaJson));
      }),
      { numRuns: 1_000 },
    );
  });

  it('still throws on malformed input on either path', () => {
    expect(() => decodeMsgpack(Uint8Array.of(0x82, 0xa1, 0x61))).toThrow(); // a map cut short
    expect(() => decodeMsgpack(Uint8Array.of(0x81, 0xa9, ...Buffer.from('__proto__')))).toThrow(); // the same, on the Map path
  });
});
