import { describe, expect, it } from 'vitest';
import { callSortKey, decodeCursor, encodeCursor } from './cursor.js';

describe('keyset cursor', () => {
  it('round-trips numeric and text keys for the sort it was made for', () => {
    for (const key of [1_700_000_000_000.5, -1, 'summarize', ['summarize', 1_700_000_000_000.5] as const]) {
      const text = encodeCursor('startedAt:desc', { key, id: 'abc' });
      expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(text, 'startedAt:desc')).toEqual({ key, id: 'abc' });
    }
  });

  it.each([
    ['another sort', encodeCursor('opName:asc', { key: ['a', 1], id: 'x' })],
    ['an op key of the wrong shape', Buffer.from('["startedAt:desc",["a","b"],"x"]').toString('base64url')],
    ['garbage', '!!!'],
    ['valid base64 of the wrong shape', Buffer.from('{"a":1}').toString('base64url')],
    ['a key of the wrong type', Buffer.from('["startedAt:desc",{},"x"]').toString('base64url')],
  ])('rejects %s with WEFT_INVALID_REQUEST at cursor', (_name, text) => {
    expect(() => decodeCursor(text, 'startedAt:desc')).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_REQUEST', path: 'cursor' }),
    );
  });

  it('takes, for each call sort, only its key: a number, or the op name and start time', () => {
    expect(callSortKey('startedAt', 5)).toBe(5);
    expect(callSortKey('opName', ['chat', 5])).toEqual(['chat', 5]);
    for (const [field, key] of [
      ['startedAt', 'chat'],
      ['latencyMs', ['chat', 5]],
      ['opName', 'chat'],
      ['opName', 5],
    ] as const) {
      expect(() => callSortKey(field, key)).toThrow(
        expect.objectContaining({ code: 'WEFT_INVALID_REQUEST', path: 'cursor' }),
      );
    }
  });
});
