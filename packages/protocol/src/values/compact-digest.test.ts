import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeMsgpack, encodeMsgpack } from '../msgpack/index.js';
import { COMPACT_DIGEST_BYTES, DIGEST_EXT_TYPE, writeCompactDigest } from './compact-digest.js';

const digest = createHash('sha256').update('a value').digest('base64url');

describe('compact digest (ext 0x44)', () => {
  it('decodes to the base64url digest it was written from, in 35 bytes instead of 45', () => {
    const out = new Uint8Array(COMPACT_DIGEST_BYTES);
    writeCompactDigest(out, 0, digest);
    expect([...out.subarray(0, 3)]).toEqual([0xc7, 32, DIGEST_EXT_TYPE]);
    expect(decodeMsgpack(out)).toBe(digest);
    expect(COMPACT_DIGEST_BYTES).toBe(encodeMsgpack(digest).byteLength - 10);
  });

  it('refuses what is not a digest, and a payload of the wrong length', () => {
    expect(() => writeCompactDigest(new Uint8Array(40), 0, 'not-a-digest')).toThrow(/is not a value digest/);
    expect(() => decodeMsgpack(Uint8Array.from([0xc7, 3, DIGEST_EXT_TYPE, 1, 2, 3]))).toThrow(
      /carries 32 bytes, not 3/,
    );
  });
});
