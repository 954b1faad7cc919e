import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.js';

describe('keyset cursor', () => {
  it('round-trips numeric and text keys for the sort it was made for', () => {
    for (const key of [1_700_000_000_000.5, -1, 'summarize']) {
      const text = encodeCursor('startedAt:desc', { key, id: 'abc' });
      expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(text, 'startedAt:desc')).toEqual({ key, id: 'abc' });
    }
  });

  it.each([
    ['another sort', encodeCursor('opName:asc', { key: 'a', id: 'x' })],
    ['garbage', '!!!'],
    ['valid base64 of the wrong shape', Buffer.from('{"a":1}').toString('base64url')],
    ['a key of the wrong type', Buffer.from('["startedAt:desc",{},"x"]').toString('base64url')],
  ])('rejects %s with WEFT_INVALID_REQUEST at cursor', (_name, text) => {
    expect(() => decodeCursor(text, 'startedAt:desc')).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_REQUEST', path: 'cursor' }),
    );
  });
});
