import { scoreValue } from '@weft/protocol';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { isScoreValue } from './score-value.js';

it('agrees with the protocol scoreValue schema on plain values (property)', () => {
  const leaf = fc.oneof(fc.double(), fc.boolean(), fc.string(), fc.constant(null), fc.constant(undefined));
  // Keys other than `__proto__`: the schema drops that one, the check refuses it (below).
  const key = fc.string().filter((k) => k !== '__proto__');
  const value = fc.oneof(leaf, fc.dictionary(key, leaf), fc.array(leaf));
  fc.assert(
    fc.property(value, (v) => {
      expect(isScoreValue(v)).toBe(scoreValue.safeParse(v).success);
    }),
  );
  expect(isScoreValue(new Date())).toBe(false);
  expect(isScoreValue({ a: Number.NaN })).toBe(false);
  expect(isScoreValue(JSON.parse('{"__proto__": 1, "a": 1}'))).toBe(false);
});
