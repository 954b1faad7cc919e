import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { arrayDigest } from '../digest/index.js';
import { decodeMsgpack, encodeMsgpack, msgpackExtHeader } from '../msgpack/index.js';
import { ARRAY_ITEM_HAS_PREV, ARRAY_VALUE_ITEM_EXT_TYPE, VALUE_ITEM_EXT_TYPE } from './compact-value-item.js';

const raw = (digest: string) => Buffer.from(digest, 'base64url');
const ext = (type: number, payload: Uint8Array) =>
  Uint8Array.from([...msgpackExtHeader(type, payload.byteLength), ...payload]);

describe('compact value items (ext 0x56, 0x41)', () => {
  it('decode to the value item maps, a plain one in 27 bytes less than its map form', () => {
    const bytes = encodeMsgpack({ text: 'a document '.repeat(200) });
    const digest = createHash('sha256').update(bytes).digest('base64url');
    const plain = ext(VALUE_ITEM_EXT_TYPE, Buffer.concat([raw(digest), bytes]));
    expect(decodeMsgpack(plain)).toEqual({ type: 'value', digest, bytes: new Uint8Array(bytes) });
    // The protocol 3 map (its digest as ext 0x44, 10 B less than the string) against the compact item.
    const map = encodeMsgpack({ type: 'value', digest, bytes }).byteLength - 10;
    expect(map - plain.byteLength).toBe(27);

    const prev = arrayDigest(undefined, [encodeMsgpack('first')]);
    const items = [encodeMsgpack('second'), encodeMsgpack({ n: 3 })];
    const chainDigest = arrayDigest(prev, items);
    const chain = ext(
      ARRAY_VALUE_ITEM_EXT_TYPE,
      Buffer.concat([
        raw(chainDigest),
        Uint8Array.of(ARRAY_ITEM_HAS_PREV),
        raw(prev),
        ...items.map((i) => encodeMsgpack(i)),
      ]),
    );
    expect(decodeMsgpack(chain)).toEqual({
      type: 'value',
      digest: chainDigest,
      prev,
      items: items.map((i) => new Uint8Array(i)),
    });
    const first = ext(
      ARRAY_VALUE_ITEM_EXT_TYPE,
      Buffer.concat([raw(prev), Uint8Array.of(0), encodeMsgpack(encodeMsgpack('first'))]),
    );
    expect(decodeMsgpack(first)).toEqual({
      type: 'value',
      digest: prev,
      items: [new Uint8Array(encodeMsgpack('first'))],
    });
  });

  it('refuse a payload too short for its digest, and array items that are not whole bins', () => {
    expect(() => decodeMsgpack(ext(VALUE_ITEM_EXT_TYPE, new Uint8Array(5)))).toThrow(/32-byte digest/);
    const digest = new Uint8Array(32);
    expect(() => decodeMsgpack(ext(ARRAY_VALUE_ITEM_EXT_TYPE, digest))).toThrow(/flags byte/);
    const notBin = Buffer.concat([digest, Uint8Array.of(0), encodeMsgpack('a string')]);
    expect(() => decodeMsgpack(ext(ARRAY_VALUE_ITEM_EXT_TYPE, notBin))).toThrow(
      /msgpack bins, whole; the one at byte 33/,
    );
    const cut = Buffer.concat([digest, Uint8Array.of(0), Uint8Array.of(0xc4, 10, 1, 2)]);
    expect(() => decodeMsgpack(ext(ARRAY_VALUE_ITEM_EXT_TYPE, cut))).toThrow(/not/);
  });
});
