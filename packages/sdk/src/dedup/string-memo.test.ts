import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StringMemo } from './string-memo.js';

/** A fresh string object with the characters of `s` (as a decoded response would be). */
const copyOf = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

describe('StringMemo', () => {
  it('finds each long string among many of the same length that share a long prefix, and no other', () => {
    const memo = new StringMemo<number>(64 * 1024 * 1024, 16 * 1024 * 1024);
    const prefix = 'lorem ipsum dolor sit amet '.repeat(1_000);
    // Same length, same first 27,000 characters: in one length-hashed Map bucket they compared far.
    const texts = Array.from({ length: 40 }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);
    for (const [i, text] of texts.entries()) memo.set(text, i);
    texts.forEach((text, i) => {
      expect(memo.get(text)).toBe(i);
      expect(memo.get(copyOf(text))).toBe(i);
    });
    expect(memo.get(`${prefix}99999`)).toBeUndefined();
    expect(memo.get(`${prefix}0000`)).toBeUndefined();
  });

  it('answers as a Map of the strings it keeps would, short and long alike, within its bound', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(7), fc.constantFrom(100, 16_383, 16_384, 20_000), fc.boolean()), {
          maxLength: 60,
        }),
        (steps) => {
          const maxChars = 80_000;
          const memo = new StringMemo<string>(maxChars, maxChars);
          const kept = new Map<string, string>();
          const order: string[] = [];
          for (const [seed, length, remember] of steps) {
            // Texts that differ only in one character, at a position that depends on the seed.
            const chars = Array.from({ length }, () => 'a');
            chars[(seed * 7919) % length] = 'b';
            const text = chars.join('');
            expect(memo.get(copyOf(text))).toBe(kept.get(text));
            if (remember && !kept.has(text)) {
              memo.set(text, `v${seed}:${length}`);
              kept.set(text, `v${seed}:${length}`);
              order.push(text);
              let chars = order.reduce((sum, s) => sum + s.length, 0);
              while (chars > maxChars) {
                const oldest = order.shift() as string;
                kept.delete(oldest);
                chars -= oldest.length;
              }
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
