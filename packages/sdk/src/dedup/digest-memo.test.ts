import { arrayDigest, digestBytes, encodeMsgpack } from '@weft/protocol';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { DigestMemo } from './digest-memo.js';

const bytesOf = (value: unknown) => encodeMsgpack(value);

describe('DigestMemo', () => {
  it('answers exactly digestBytes and arrayDigest, whether it remembered the bytes or not', () => {
    const memo = new DigestMemo(64 * 1024);
    const pool = fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(
        pool,
        // A chain has items (an empty array has no digest, so no marker).
        fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }),
        (values, arrays) => {
          for (const picks of arrays) {
            const items = picks.map((p) => bytesOf(values[p % values.length]));
            const digests = memo.chain(items).digests;
            expect(digests).toEqual(items.map((_, i) => arrayDigest(undefined, items.slice(0, i + 1))));
            for (const item of items) {
              // As parts too: a value's bytes may come as a header and a payload.
              const parts = [item.subarray(0, 1), item.subarray(1)];
              expect(memo.plain(parts).digest).toBe(digestBytes(item));
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reuses the digests of a remembered prefix for a grown array', () => {
    const memo = new DigestMemo();
    const items = Array.from({ length: 5 }, (_, i) => bytesOf({ message: i }));
    const first = memo.chain(items.slice(0, 3)).digests;
    const grown = memo.chain(items).digests;
    expect(grown.slice(0, 3)).toEqual(first);
    expect(grown).toEqual(items.map((_, i) => arrayDigest(undefined, items.slice(0, i + 1))));
  });

  it('finds the same array again among the histories of many conversations, without hashing it again', () => {
    const memo = new DigestMemo();
    const histories = Array.from({ length: 40 }, (_, c) =>
      Array.from({ length: 3 }, (_, i) => bytesOf({ conversation: c, message: i, text: 'x'.repeat(100) })),
    );
    const first = histories.map((items) => memo.chain(items));
    // Each again, in the same rotation an app serving 40 users would make.
    histories.forEach((items, c) => {
      expect(memo.chain(items.map((item) => Uint8Array.from(item)))).toBe(first[c]);
    });
  });

  it('compares a new value with a few remembered values of its shape, not with every one of its length', () => {
    const memo = new DigestMemo();
    // LLM replies of one shape: the same length, ids that differ (as in a burst of agent steps).
    const reply = (n: number) =>
      bytesOf({ id: `chatcmpl-${String(n).padStart(6, '0')}`, content: 'x'.repeat(1_000) });
    for (let n = 0; n < 2_000; n++) memo.plain([reply(n)]);
    const compare = vi.spyOn(Buffer.prototype, 'compare');
    try {
      const fresh = memo.plain([reply(2_000)]);
      expect(fresh.digest).toBe(digestBytes(reply(2_000)));
      expect(compare.mock.calls.length).toBeLessThanOrEqual(4);
      // A recent one is still found by comparison (the same entry, not hashed again).
      expect(memo.plain([reply(1_999)])).toBe(memo.plain([reply(1_999)]));
    } finally {
      compare.mockRestore();
    }
  });
});
