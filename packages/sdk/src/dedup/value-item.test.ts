import { decodeMsgpack, digestBytes } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { arrayValueItem, plainValueItem } from './value-item.js';

/** Value bytes around every bin header size (bin8, bin16, bin32) and well past 64 KiB. */
const SIZES = [0, 1, 255, 256, 65_535, 65_536, 81_920, 1_048_576];

describe('value items', () => {
  it.each(SIZES)('a plain value of %i bytes, given in two parts, decodes to its bytes', (size) => {
    const bytes = new Uint8Array(size).map((_, i) => i % 251);
    const digest = digestBytes(bytes);
    const item = plainValueItem(digest, [bytes.subarray(0, size >> 1), bytes.subarray(size >> 1)]);
    const decoded = decodeMsgpack(item) as { type: string; digest: string; bytes: Uint8Array };
    expect(decoded.type).toBe('value');
    expect(decoded.digest).toBe(digest);
    expect(Buffer.from(decoded.bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it.each(SIZES)(
    'an array item of one %i-byte element, with and without prev, decodes to its items',
    (size) => {
      const item = new Uint8Array(size).fill(7);
      const digest = digestBytes(item);
      for (const prev of [undefined, digest]) {
        const decoded = decodeMsgpack(arrayValueItem(digest, prev, [item])) as {
          items: Uint8Array[];
          prev?: string;
        };
        expect(decoded.prev).toBe(prev);
        expect(decoded.items).toHaveLength(1);
        expect(decoded.items[0]?.byteLength).toBe(size);
      }
    },
  );
});
