import { describe, expect, it } from 'vitest';
import { formatDuration, formatRelativeTime, formatTime } from './format.js';

/** One past the largest time a JS Date holds (±8.64e15 ms). */
const PAST_DATE_RANGE = 8.64e15 + 1;

describe('formatting', () => {
  it('shows a dash for a moment no Date can hold, and never throws', () => {
    for (const bad of [1e300, -1e300, PAST_DATE_RANGE, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatTime(bad)).toBe('—');
      expect(formatRelativeTime(bad, Date.now())).toBe('—');
    }
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) expect(formatDuration(bad)).toBe('—');
    expect(formatTime(0)).not.toBe('—');
  });

  it('says how long ago, then the date after a week', () => {
    const now = Date.UTC(2026, 10, 27, 12, 0, 0);
    expect(formatRelativeTime(now - 2_000, now)).toBe('just now');
    expect(formatRelativeTime(now - 42_000, now)).toBe('42 s ago');
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(formatRelativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(formatRelativeTime(now - 2 * 86_400_000, now)).toBe('2 d ago');
    expect(formatRelativeTime(now - 30 * 86_400_000, now)).not.toMatch(/ago/);
  });
});
