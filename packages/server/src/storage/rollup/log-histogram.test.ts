import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addHistogram,
  addToBin,
  binOf,
  QUANTILE_RELATIVE_ERROR,
  quantileOf,
  quantilesOf,
  valueOfBin,
} from './log-histogram.js';

const exactQuantile = (values: readonly number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))] as number;

describe('log histogram', () => {
  it('reads every percentile back within the stated relative error', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.002, max: 1e7, noNaN: true }), { minLength: 1, maxLength: 500 }),
        fc.constantFrom(0, 0.5, 0.9, 0.95, 0.99, 1),
        (values, q) => {
          const histogram = new Map<number, number>();
          for (const value of values) addToBin(histogram, binOf(value), 1);
          const exact = exactQuantile(values, q);
          const estimate = quantileOf(histogram, q) as number;
          expect(Math.abs(estimate - exact)).toBeLessThanOrEqual(
            QUANTILE_RELATIVE_ERROR * exact * (1 + 1e-12),
          );
        },
      ),
    );
  });

  it('reads several percentiles in one walk, in any order, each within the stated relative error', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.002, max: 1e7, noNaN: true }), { minLength: 1, maxLength: 500 }),
        fc.shuffledSubarray([0, 0.5, 0.9, 0.95, 0.99, 1], { minLength: 1 }),
        (values, qs) => {
          const histogram = new Map<number, number>();
          for (const value of values) addToBin(histogram, binOf(value), 1);
          const estimates = quantilesOf(histogram, qs) as number[];
          qs.forEach((q, i) => {
            const exact = exactQuantile(values, q);
            expect(Math.abs((estimates[i] as number) - exact)).toBeLessThanOrEqual(
              QUANTILE_RELATIVE_ERROR * exact * (1 + 1e-12),
            );
          });
        },
      ),
    );
    expect(quantilesOf(new Map(), [0.5, 0.99])).toEqual([null, null]);
  });

  it('takes values back out exactly: adding then subtracting leaves nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { maxLength: 100 }), (values) => {
        const histogram = new Map<number, number>();
        const removed = new Map<number, number>();
        for (const value of values) {
          addToBin(histogram, binOf(value), 1);
          addToBin(removed, binOf(value), 1);
        }
        addHistogram(histogram, removed, -1);
        expect(histogram.size).toBe(0);
        expect(quantileOf(histogram, 0.5)).toBeNull();
      }),
    );
  });

  it('reads values of at most 1 µs as 0', () => {
    expect(valueOfBin(binOf(0))).toBe(0);
    expect(valueOfBin(binOf(0.0005))).toBe(0);
    expect(valueOfBin(binOf(0.01))).toBeGreaterThan(0);
  });
});
