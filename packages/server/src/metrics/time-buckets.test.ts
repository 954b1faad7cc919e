import { WeftError } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { autoBucket, bucketIndex, timeBuckets } from './time-buckets.js';

const HOUR = 3_600_000;

describe('timeBuckets', () => {
  it('starts days at local midnight, so the days of DST changes last 23 and 25 hours (Europe/Paris)', () => {
    const spring = timeBuckets(Date.UTC(2026, 2, 27, 23), Date.UTC(2026, 2, 31, 22), 'day', 'Europe/Paris');
    const lengths = spring.starts.slice(1).map((start, i) => start - (spring.starts[i] as number));
    expect(lengths).toEqual([24 * HOUR, 23 * HOUR, 24 * HOUR]);
    const autumn = timeBuckets(Date.UTC(2026, 9, 24, 22), Date.UTC(2026, 9, 27, 23), 'day', 'Europe/Paris');
    expect(autumn.starts[1]! - autumn.starts[0]!).toBe(25 * HOUR);
  });

  it('starts hours on the half hour in a zone half an hour off UTC (Asia/Kolkata)', () => {
    const buckets = timeBuckets(Date.UTC(2026, 0, 1, 0), Date.UTC(2026, 0, 1, 3), 'hour', 'Asia/Kolkata');
    expect(buckets.starts).toEqual([
      Date.UTC(2026, 0, 1, 0),
      Date.UTC(2026, 0, 1, 0, 30),
      Date.UTC(2026, 0, 1, 1, 30),
      Date.UTC(2026, 0, 1, 2, 30),
    ]);
  });

  it('starts months on the 1st and weeks on Monday', () => {
    const months = timeBuckets(Date.UTC(2026, 0, 15), Date.UTC(2026, 3, 1), 'month', 'UTC');
    expect(months.starts).toEqual([Date.UTC(2026, 0, 15), Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1)]);
    const weeks = timeBuckets(Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 15), 'week', 'UTC');
    // 2026-01-05 and 2026-01-12 are Mondays.
    expect(weeks.starts).toEqual([Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 5), Date.UTC(2026, 0, 12)]);
  });

  it('refuses buckets too fine for the range with a 400 naming bucket', () => {
    let error: unknown;
    try {
      timeBuckets(0, 30 * 24 * HOUR, 'minute', 'UTC');
    } catch (caught) {
      error = caught;
    }
    expect(WeftError.isInstance(error) && error.code).toBe('WEFT_INVALID_REQUEST');
    expect((error as { path: string }).path).toBe('bucket');
    expect((error as Error).message).toMatch(/at most 1500.*'hour'/);
  });

  it('picks the finest width with at most 200 points for auto', () => {
    expect(autoBucket(3 * HOUR)).toBe('minute');
    expect(autoBucket(24 * HOUR)).toBe('15m');
    expect(autoBucket(30 * 24 * HOUR)).toBe('6h');
    expect(timeBuckets(0, 24 * HOUR, 'auto', 'UTC').starts).toHaveLength(96);
  });

  it('finds the bucket of a time', () => {
    expect(bucketIndex([0, 10, 20], 0)).toBe(0);
    expect(bucketIndex([0, 10, 20], 19)).toBe(1);
    expect(bucketIndex([0, 10, 20], 25)).toBe(2);
  });
});
