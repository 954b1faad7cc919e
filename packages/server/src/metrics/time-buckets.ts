import { AUTO_BUCKET_POINTS, MAX_METRIC_POINTS, type MetricBucket } from '@weft/protocol';
import { DateTime } from 'luxon';
import { InvalidRequestError } from '../errors/index.js';

type FixedBucket = Exclude<MetricBucket, 'auto' | 'total'>;

/** Nominal widths, for `auto` and the point cap before any bucket is made. */
const NOMINAL_MS: Record<FixedBucket, number> = {
  minute: 60_000,
  '5m': 300_000,
  '15m': 900_000,
  hour: 3_600_000,
  '6h': 21_600_000,
  day: 86_400_000,
  week: 604_800_000,
  month: 2_592_000_000,
};

const FIXED = Object.keys(NOMINAL_MS) as FixedBucket[];

/** The buckets of a range: where each starts, and the width `auto` resolved to. */
export interface TimeBuckets {
  bucket: Exclude<MetricBucket, 'auto'>;
  /** Bucket i is [starts[i], starts[i + 1]); the last ends at `to`. */
  starts: number[];
  to: number;
}

/**
 * The buckets of `[from, to)` in `timeZone`: the first starts at `from`,
 * the next ones on the bucket grid of that zone (local midnight for days,
 * Monday for weeks, the 1st for months, 00/06/12/18 h for 6 h), so a day
 * across a DST change is 23 or 25 hours long. Refuses more than
 * `MAX_METRIC_POINTS` buckets with a 400 naming `bucket`.
 */
export function timeBuckets(from: number, to: number, bucket: MetricBucket, timeZone: string): TimeBuckets {
  // A dashboard's panels ask for the same buckets at once: made once (time
  // zone arithmetic is a good part of a small query's time).
  const key = `${from} ${to} ${bucket} ${timeZone}`;
  const made = recent.get(key);
  if (made !== undefined) return { ...made, starts: [...made.starts] };
  const buckets = makeBuckets(from, to, bucket, timeZone);
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value as string);
  recent.set(key, buckets);
  return { ...buckets, starts: [...buckets.starts] };
}

/** Buckets made lately, oldest first. */
const recent = new Map<string, TimeBuckets>();
const RECENT_MAX = 32;

function makeBuckets(from: number, to: number, bucket: MetricBucket, timeZone: string): TimeBuckets {
  if (bucket === 'total') return { bucket, starts: [from], to };
  const width = bucket === 'auto' ? autoBucket(to - from) : bucket;
  if ((to - from) / NOMINAL_MS[width] > MAX_METRIC_POINTS * 1.1) tooFine(width, to - from);
  const starts = [from];
  let next = gridStart(DateTime.fromMillis(from, { zone: timeZone }), width);
  for (;;) {
    next = following(next, width);
    const ms = next.toMillis();
    if (ms >= to) break;
    starts.push(ms);
    if (starts.length > MAX_METRIC_POINTS) tooFine(width, to - from);
  }
  return { bucket: width, starts, to };
}

/** The finest width giving at most `AUTO_BUCKET_POINTS` buckets over `rangeMs`. */
export function autoBucket(rangeMs: number): FixedBucket {
  return FIXED.find((width) => rangeMs / NOMINAL_MS[width] <= AUTO_BUCKET_POINTS) ?? 'month';
}

/** The index of the bucket holding `ms` (`starts` ascending, `ms` ≥ starts[0]). */
export function bucketIndex(starts: readonly number[], ms: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] as number) <= ms) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The start of the grid bucket holding `time`. */
function gridStart(time: DateTime, width: FixedBucket): DateTime {
  switch (width) {
    case 'minute':
      return time.startOf('minute');
    case '5m':
    case '15m': {
      const step = width === '5m' ? 5 : 15;
      const minute = time.startOf('minute');
      return minute.set({ minute: minute.minute - (minute.minute % step) });
    }
    case 'hour':
      return time.startOf('hour');
    case '6h': {
      const hour = time.startOf('hour');
      return hour.set({ hour: hour.hour - (hour.hour % 6) });
    }
    case 'day':
      return time.startOf('day');
    case 'week':
      return time.startOf('week');
    case 'month':
      return time.startOf('month');
  }
}

/** The grid start after `start`. */
function following(start: DateTime, width: FixedBucket): DateTime {
  switch (width) {
    case 'minute':
      return start.plus({ minutes: 1 });
    case '5m':
      return start.plus({ minutes: 5 });
    case '15m':
      return start.plus({ minutes: 15 });
    case 'hour':
      return start.plus({ hours: 1 });
    // Seven elapsed hours then back to the grid: lands on the next 6-hour
    // boundary whether DST makes this one 5, 6 or 7 hours long.
    case '6h':
      return gridStart(start.plus({ hours: 7 }), '6h');
    case 'day':
      return start.plus({ days: 1 }).startOf('day');
    case 'week':
      return start.plus({ weeks: 1 }).startOf('week');
    case 'month':
      return start.plus({ months: 1 }).startOf('month');
  }
}

function tooFine(width: FixedBucket, rangeMs: number): never {
  const points = Math.ceil(rangeMs / NOMINAL_MS[width]);
  const coarser = FIXED.find((w) => rangeMs / NOMINAL_MS[w] <= MAX_METRIC_POINTS) ?? 'month';
  throw new InvalidRequestError(
    [
      {
        path: 'bucket',
        message: `'${width}' buckets over this range make about ${points} points; at most ${MAX_METRIC_POINTS} are allowed: use '${coarser}' or coarser, or 'auto'`,
      },
    ],
    'body',
  );
}
