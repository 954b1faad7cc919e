import fc from 'fast-check';
import { unpack } from 'msgpackr';
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

describe("Weft's msgpack extensions and an application's own msgpackr", () => {
  // msgpackr keeps one extension table per module instance: an application
  // that imports msgpackr in the same process shares the one Weft registers in.
  const ext = (type: number, length: number) =>
    Uint8Array.from([0xc7, length, type, ...new Array(length).fill(0xab)]);

  it.each([
    ['compact value marker (ext 0x57)', 0x57, 32],
    ['compact digest (ext 0x44)', 0x44, 32],
    ['compact call id (ext 0x55)', 0x55, 16],
  ])(
    "an application unpacking a %s gets msgpackr's own answer; decodeMsgpack still reads it",
    (_name, type, length) => {
      const bytes = ext(type, length);
      expect(() => unpack(bytes)).toThrow(`Unknown extension type ${type}`);
      expect(decodeMsgpack(bytes)).toBeDefined();
      // And after a Weft decode, still msgpackr's answer.
      expect(() => unpack(bytes)).toThrow(`Unknown extension type ${type}`);
    },
  );
});
