import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addHistogram, addToBin, binOf, type LogHistogram } from '../rollup/index.js';
import { HistogramBlobSum, histogramBlob, histogramBlobOfJson, histogramOfBlob } from './histogram-blob.js';

const histogramOf = (values: readonly number[]): LogHistogram => {
  const histogram: LogHistogram = new Map();
  for (const value of values) addToBin(histogram, binOf(value), 1);
  return histogram;
};
const sorted = (histogram: ReadonlyMap<number, number>) => [...histogram].sort((a, b) => a[0] - b[0]);
// Latencies as they come (0 and sub-µs values included, up to 11 days), some repeated.
const latencies = fc.array(
  fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e9, noNaN: true }), fc.constantFrom(50, 51, 2_000)),
  { maxLength: 200 },
);

describe('rollup histograms stored as binary counts', () => {
  it('reads back exactly the histogram stored, and nothing for an empty one', () => {
    fc.assert(
      fc.property(latencies, (values) => {
        const histogram = histogramOf(values);
        expect(sorted(histogramOfBlob(histogramBlob(histogram)))).toEqual(sorted(histogram));
      }),
    );
    expect(histogramBlob(new Map())).toBeNull();
    expect(histogramOfBlob(null).size).toBe(0);
  });

  it('adds stored histograms up to the histogram of all their values, in any order', () => {
    fc.assert(
      fc.property(fc.array(latencies, { maxLength: 8 }), (rows) => {
        const sum = new HistogramBlobSum();
        const expected: LogHistogram = new Map();
        for (const values of rows) {
          const histogram = histogramOf(values);
          sum.add(histogramBlob(histogram));
          addHistogram(expected, histogram);
        }
        expect(sorted(histogramOfBlob(sum.blob()))).toEqual(sorted(expected));
      }),
    );
  });

  it('rewrites the JSON bin lists stored before migration 11 to the same histogram', () => {
    fc.assert(
      fc.property(latencies, (values) => {
        const histogram = histogramOf(values);
        const json = histogram.size === 0 ? null : JSON.stringify(sorted(histogram));
        expect(sorted(histogramOfBlob(histogramBlobOfJson(json)))).toEqual(sorted(histogram));
      }),
    );
  });
});
