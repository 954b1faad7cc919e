import { describe, expect, it } from 'vitest';
import { seededRandom as seeded } from '../../test/support/seeded-random.js';
import { backoffDelayMs } from './backoff.js';

describe('backoffDelayMs', () => {
  const options = { baseMs: 100, maxMs: 10_000 };

  it('stays within [0, min(maxMs, baseMs·2^(attempt−1))) for every attempt', () => {
    const random = seeded(42);
    for (let attempt = 1; attempt <= 40; attempt++) {
      const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** (attempt - 1));
      for (let draw = 0; draw < 200; draw++) {
        const delay = backoffDelayMs(attempt, options, random);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(Math.max(ceiling, 1));
        expect(Number.isInteger(delay)).toBe(true);
      }
    }
  });

  it('spreads the draws over the whole window (full jitter)', () => {
    const random = seeded(7);
    const delays = Array.from({ length: 1_000 }, () => backoffDelayMs(4, options, random));
    expect(Math.min(...delays)).toBeLessThan(80);
    expect(Math.max(...delays)).toBeGreaterThan(720);
  });

  it('maps the ends of the random range to 0 and just under the ceiling', () => {
    expect(backoffDelayMs(3, options, () => 0)).toBe(0);
    expect(backoffDelayMs(3, options, () => 0.999_999)).toBe(399);
    expect(backoffDelayMs(1, options, () => 0.5)).toBe(50);
  });

  it('caps huge attempts at maxMs without overflowing', () => {
    expect(backoffDelayMs(5_000, options, () => 0.999_999)).toBe(9_999);
    expect(backoffDelayMs(Number.MAX_SAFE_INTEGER, options, () => 0.5)).toBe(5_000);
  });

  it('treats attempts below 1 as the first', () => {
    expect(backoffDelayMs(0, options, () => 0.5)).toBe(50);
    expect(backoffDelayMs(-3, options, () => 0.5)).toBe(50);
  });
});
