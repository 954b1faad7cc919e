import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isWeftErrorCode, WEFT_ERROR_CODES, type WeftErrorCode } from './error-codes.js';
import { hasCode } from './has-code.js';
import { InvalidRefError } from './invalid-ref-error.js';
import { WeftError } from './weft-error.js';

describe('hasCode', () => {
  it('is true for a Weft error with that code, false for another code', () => {
    const error = new InvalidRefError('nope', 'not a ref');
    expect(hasCode(error, 'WEFT_INVALID_REF')).toBe(true);
    expect(hasCode(error, 'WEFT_NOT_FOUND')).toBe(false);
  });

  it('is true for a Weft error from another copy of the package (the Symbol.for brand)', () => {
    const copy = Object.assign(new Error('from another copy'), {
      code: 'WEFT_NOT_FOUND',
      [Symbol.for('weft.error')]: true,
    });
    expect(hasCode(copy, 'WEFT_NOT_FOUND')).toBe(true);
  });

  it('is false for anything that only looks like one: a plain error or object with the code, null, a string', () => {
    expect(hasCode(Object.assign(new Error('x'), { code: 'WEFT_NOT_FOUND' }), 'WEFT_NOT_FOUND')).toBe(false);
    expect(hasCode({ code: 'WEFT_NOT_FOUND' }, 'WEFT_NOT_FOUND')).toBe(false);
    expect(hasCode(null, 'WEFT_NOT_FOUND')).toBe(false);
    expect(hasCode('WEFT_NOT_FOUND', 'WEFT_NOT_FOUND')).toBe(false);
  });

  it('narrows the error to its code (a misspelt code does not compile)', () => {
    const error: unknown = new WeftError({ code: 'WEFT_CLOSED', message: 'closed' });
    if (!hasCode(error, 'WEFT_CLOSED')) throw new Error('expected WEFT_CLOSED');
    const code: 'WEFT_CLOSED' = error.code;
    expect(code).toBe('WEFT_CLOSED');
    // @ts-expect-error: not a code of WEFT_ERROR_CODES
    expect(hasCode(error, 'WEFT_NO_SUCH_CODE')).toBe(false);
  });
});

describe('WEFT_ERROR_CODES', () => {
  it('tells a known code from any other value', () => {
    expect(isWeftErrorCode('WEFT_NOT_FOUND')).toBe(true);
    expect(isWeftErrorCode('WEFT_HTTP_404')).toBe(false);
    expect(isWeftErrorCode(undefined)).toBe(false);
  });

  it('lists each code once, and docs/errors.md has a row for each and for nothing else', () => {
    expect(new Set(WEFT_ERROR_CODES).size).toBe(WEFT_ERROR_CODES.length);
    const docs = readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');
    const rows = [...docs.matchAll(/^\| `(WEFT_[A-Z_]+)`/gm)].map((m) => m[1] as WeftErrorCode);
    expect([...rows].sort()).toEqual([...WEFT_ERROR_CODES].sort());
  });
});
