const DURATION = /^(\d+)(s|m|h|d|w)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** What {@link timePointOf} reads, for error messages. */
export const TIME_POINT_FORMS =
  'an ISO date or time (2026-11-27, 2026-11-27T09:00Z), epoch milliseconds, or a duration ago (30m, 6h, 7d, 2w)';

/**
 * A point in time from what a person (or an agent) writes: an ISO 8601
 * date or time, milliseconds since the epoch, or a duration ago. Undefined
 * for anything else.
 */
export function timePointOf(value: string | number, now = Date.now()): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  const ago = DURATION.exec(value);
  if (ago) return now - Number(ago[1]) * UNIT_MS[ago[2] as keyof typeof UNIT_MS];
  if (/^\d{10,}$/.test(value)) return Number(value);
  if (!/^\d{4}-\d\d-\d\d/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
