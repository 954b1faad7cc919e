import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addHistogram, addToBin, binOf, type LogHistogram } from '../rollup/index.js';
import { HistogramBlobSum, histogramBlob, histogramOfBlob } from './histogram-blob.js';
import { float64BlobOfJson, histogramOfFloat64Blob } from './histogram-blob-float64.js';

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

  it('rewrites the JSON bin lists stored before migration 11, then their float64 form, to the same histogram', () => {
    fc.assert(
      fc.property(latencies, (values) => {
        const histogram = histogramOf(values);
        const json = histogram.size === 0 ? null : JSON.stringify(sorted(histogram));
        const float64 = histogramOfFloat64Blob(float64BlobOfJson(json));
        expect(sorted(float64)).toEqual(sorted(histogram));
        expect(sorted(histogramOfBlob(histogramBlob(float64)))).toEqual(sorted(histogram));
      }),
    );
  });

  it('keeps counts exact up to 2^52 and below 0 (a delta), each count under 64 in one byte', () => {
    const counts = new Map([
      [-349, 1],
      [0, 63],
      [1, 2 ** 52 - 1],
      [5, -7],
      [1_036, 64],
    ]);
    expect(sorted(histogramOfBlob(histogramBlob(counts)))).toEqual(sorted(counts));
    // An hour row of a busy op: no zero, first bin 300 (two bytes), 200 bins of up to 63 calls (one byte each; float64s took 8).
    const busy = new Map(Array.from({ length: 200 }, (_, i) => [300 + i, 1 + (i % 63)]));
    expect(histogramBlob(busy)?.length).toBe(1 + 2 + 200);
  });
});
