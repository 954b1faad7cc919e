import { WeftError } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { DigestMismatchError, InvalidRequestError, NotFoundError, TokenRequiredError } from './index.js';

describe('server errors', () => {
  it('are WeftErrors whose isInstance tells them apart by code', () => {
    const notFound = new NotFoundError('gone');
    expect(WeftError.isInstance(notFound)).toBe(true);
    expect(NotFoundError.isInstance(notFound)).toBe(true);
    expect(TokenRequiredError.isInstance(notFound)).toBe(false);
    expect(NotFoundError.isInstance(new Error('gone'))).toBe(false);
  });

  it('name the offending field in the message and in the fields', () => {
    const invalid = new InvalidRequestError([
      { path: 'items.3.startedAt', index: 3, message: 'expected number' },
      { path: 'items.4.id', index: 4, message: 'must be a UUID' },
    ]);
    expect(invalid).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'items.3.startedAt', index: 3 });
    expect(invalid.message).toBe('Invalid request at items.3.startedAt: expected number (and 1 more issue)');
    const mismatch = new DigestMismatchError({ expected: 'a', actual: 'b' });
    expect(mismatch.message).toContain('server computed a but the request says b');
  });
});
