import { describe, expect, it } from 'vitest';
import { formatUsd } from './format-usd.js';

describe('formatUsd', () => {
  it.each([
    [1234.567, '$1,234.57'],
    [1.2, '$1.20'],
    [1, '$1.00'],
    [0.5, '$0.50'],
    [0.0123, '$0.0123'],
    [0.01234567, '$0.0123'],
    [0.012, '$0.012'],
    [0.0000243, '$0.0000243'],
    [1.5e-9, '$0.0000000015'],
    [0.99996, '$1.00'],
    [0, '$0.00'],
  ])('%s → %s', (dollars, text) => {
    expect(formatUsd(dollars)).toBe(text);
  });

  it('prints nothing for an absent cost (an unpriced model), never $0', () => {
    expect(formatUsd(undefined)).toBe('');
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, -1])(
    'prints nothing for the impossible cost %s',
    (dollars) => {
      expect(formatUsd(dollars)).toBe('');
    },
  );

  it('never rounds a positive cost to zero', () => {
    for (let exp = -15; exp < 0; exp++) expect(formatUsd(10 ** exp)).toMatch(/^\$0\.0*10?$/);
  });
});
