import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retry-after.js';

const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');

describe('parseRetryAfter', () => {
  it.each([
    ['absent', undefined, undefined],
    ['zero seconds', '0', 0],
    ['whole seconds', '120', 120_000],
    ['seconds with whitespace', ' 3 ', 3_000],
    ['fractional seconds', '1.5', 1_500],
    ['an HTTP-date in the future', 'Wed, 21 Oct 2026 07:28:30 GMT', 30_000],
    ['an HTTP-date in the past', 'Wed, 21 Oct 2026 07:27:00 GMT', 0],
    ['negative seconds', '-5', undefined],
    ['garbage', 'soon', undefined],
    ['a date without a zone', '2026-10-21', undefined],
    ['empty', '', undefined],
  ])('%s', (_name, value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
