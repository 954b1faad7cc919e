import { encodeMsgpack, MsgpackKind, readMsgpackHeader } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { MIN_CHAIN_ITEM_BYTES, Replacement, replacementOf } from './value-markers.js';

/** The rule for the value `value` as the wire encoder writes it. */
function ruleFor(value: unknown): Replacement {
  const b = encodeMsgpack(value);
  const { kind, headerLength, size } = readMsgpackHeader(b, 0);
  return replacementOf(kind, size, b.byteLength - headerLength);
}

describe('replacementOf', () => {
  it('digests a string by its text (with the smallest header)', () => {
    expect(ruleFor('x'.repeat(5_000))).toBe(Replacement.String);
  });

  it('chains an array of two or more items averaging at least MIN_CHAIN_ITEM_BYTES', () => {
    const item = { role: 'user', content: 'y'.repeat(MIN_CHAIN_ITEM_BYTES) };
    expect(ruleFor([item, item])).toBe(Replacement.Chain);
    expect(ruleFor([item])).toBe(Replacement.Plain);
  });

  it('sends an array of small items (an embedding) and any other value whole', () => {
    expect(ruleFor(Array.from({ length: 500 }, (_, i) => i / 7))).toBe(Replacement.Plain);
    expect(ruleFor({ text: 'z'.repeat(5_000) })).toBe(Replacement.Plain);
    expect(replacementOf(MsgpackKind.Bin, 5_000, 5_000)).toBe(Replacement.Plain);
  });
});
