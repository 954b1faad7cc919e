import { digestBytes, encodeMsgpack, valueRef, valueRefBytes } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { valueRefsOf } from './content-refs.js';

describe('valueRefsOf', () => {
  it('finds the values a stored value refers to by markers of either form, so collection keeps them', () => {
    const compact = digestBytes('compact');
    const mapForm = digestBytes('map form');
    // `{ a: <compact marker> }` as the SDK writes it: no "weft" anywhere in its bytes.
    const bytes = Buffer.concat([Uint8Array.of(0x81, 0xa1, 0x61), valueRefBytes(compact)]);
    expect(Buffer.from(bytes).includes('weft')).toBe(false);
    expect(valueRefsOf(undefined, bytes)).toEqual([`v:${compact}`]);
    expect(valueRefsOf(compact, encodeMsgpack([valueRef(mapForm), 'text']))).toEqual(
      [`v:${compact}`, `v:${mapForm}`].sort(),
    );
    expect(valueRefsOf(undefined, encodeMsgpack({ plain: 'text' }))).toEqual([]);
  });
});
