import * as protocol from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { isRefUri, parseRef } from './ref.js';

const D = 'a'.repeat(43);
const cases = [
  `weft:///proj/object/dataset:${D}`,
  `weft:///proj/op/answer.v2:${D}/inputs/0`,
  `weft:///proj/table/${D}`,
  'weft:///proj/call/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  `weft:///proj/object/a%20b:${D}/x%2Fy`,
  `weft:///proj/object/nodigest`,
  `weft:///proj/blob/${D}`,
  `weft:///-bad/table/${D}`,
  `weft:///proj/table/${D}//x`,
  'weft:///proj/call/not-a-uuid',
  'http://example.com',
  `weft:///proj/table/${D}/%E0%A4%A`,
];

describe('UI ref parser', () => {
  it.each(cases)('agrees with @weft/protocol on %s', (text) => {
    let expected: protocol.Ref | undefined;
    try {
      expected = protocol.parseRef(text);
    } catch {
      expected = undefined;
    }
    expect(parseRef(text)).toEqual(expected);
    expect(isRefUri(text)).toBe(protocol.isRefUri(text));
  });
});
