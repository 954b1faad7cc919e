import { describe, expect, it } from 'vitest';
import { digestBytes } from '../digest/digest.js';
import { decodeMsgpack, encodeMsgpack } from '../msgpack/index.js';
import { collectValueRefs, valueRef } from './value-ref.js';
import { mayHoldValueRefs, VALUE_REF_BYTES, VALUE_REF_EXT_HEAD, valueRefBytes } from './value-ref-bytes.js';

const digest = digestBytes('x');
const other = digestBytes('y');

/** msgpack of `{ a: <marker bytes>, b: [1, <marker bytes>] }`, the markers spliced in as the SDK writes them. */
function recordWith(first: Uint8Array, second: Uint8Array): Uint8Array {
  return Buffer.concat([
    Uint8Array.of(0x82, 0xa1, 0x61),
    first,
    Uint8Array.of(0xa1, 0x62, 0x92, 0x01),
    second,
  ]);
}

describe('compact value markers', () => {
  it('take 35 bytes, and decode to the same marker as the map form', () => {
    expect(valueRefBytes(digest).byteLength).toBe(35);
    expect(VALUE_REF_BYTES).toBe(35);
    expect(encodeMsgpack(valueRef(digest)).byteLength).toBeGreaterThan(60);
    expect(decodeMsgpack(valueRefBytes(digest))).toEqual(valueRef(digest));
  });

  it('are read alongside map-form markers (older SDKs) in one record', () => {
    const record = recordWith(valueRefBytes(digest), encodeMsgpack(valueRef(other)));
    const decoded = decodeMsgpack(record);
    expect(decoded).toEqual({ a: valueRef(digest), b: [1, valueRef(other)] });
    expect([...collectValueRefs(decoded, new Set())].sort()).toEqual([digest, other].sort());
  });

  it('decode on the path that keeps "__proto__" keys too', () => {
    const record = Buffer.concat([
      Uint8Array.of(0x82, 0xa9),
      Buffer.from('__proto__'),
      Uint8Array.of(0x01, 0xa1, 0x61),
      valueRefBytes(digest),
    ]);
    const decoded = decodeMsgpack(record) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(decoded, '__proto__')?.value).toBe(1);
    expect(decoded.a).toEqual(valueRef(digest));
  });

  it('refuse a payload that is not a 32-byte digest, naming the marker', () => {
    const short = Uint8Array.of(0xc7, 4, VALUE_REF_EXT_HEAD[2] as number, 1, 2, 3, 4);
    expect(() => decodeMsgpack(short)).toThrow(
      /value marker \(msgpack ext 87\) carries 32 digest bytes, not 4/,
    );
  });

  it('are written only for a well-formed digest', () => {
    expect(() => valueRefBytes('short')).toThrow(/not a value digest/);
    // 43 characters whose last one sets bits a SHA-256 does not have.
    expect(() => valueRefBytes(`${digest.slice(0, 42)}B`)).toThrow(/not a value digest/);
  });

  it('are found in bytes without decoding, in either form', () => {
    expect(mayHoldValueRefs(recordWith(valueRefBytes(digest), Uint8Array.of(0xc0)))).toBe(true);
    expect(mayHoldValueRefs(encodeMsgpack([valueRef(digest)]))).toBe(true);
    expect(mayHoldValueRefs(encodeMsgpack({ a: 'plain text', b: [1, 2] }))).toBe(false);
  });
});
