/** Display formatting shared by every view: durations, times, counts. */

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} m ${Math.round((ms % 60_000) / 1_000)} s`;
}

const timeFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/**
 * A moment as date and time, or "—" when it is not one a `Date` can hold
 * (a timestamp out of range, NaN): the one date formatter of the UI never
 * throws, so a bad row written by an old server shows a dash instead of
 * breaking its view.
 */
export function formatTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? '—' : timeFormat.format(date);
}

const SHORT_DATE = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const SHORT_DATE_YEAR = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
});

/**
 * How long ago `ms` was, as a table shows it: `just now`, `42 s ago`,
 * `5 min ago`, `3 h ago`, `2 d ago`; older than a week (or in the future,
 * a clock ahead of this one) the date itself, `Nov 27` (with the year when
 * it is not this one's).
 */
export function formatRelativeTime(ms: number, nowMs: number): string {
  const age = nowMs - ms;
  if (!Number.isFinite(age) || Number.isNaN(new Date(ms).getTime())) return '—';
  if (age >= 0) {
    if (age < 5_000) return 'just now';
    if (age < 60_000) return `${Math.floor(age / 1_000)} s ago`;
    if (age < 3_600_000) return `${Math.floor(age / 60_000)} min ago`;
    if (age < 86_400_000) return `${Math.floor(age / 3_600_000)} h ago`;
    if (age < 7 * 86_400_000) return `${Math.floor(age / 86_400_000)} d ago`;
  }
  const date = new Date(ms);
  return (date.getFullYear() === new Date(nowMs).getFullYear() ? SHORT_DATE : SHORT_DATE_YEAR).format(date);
}

export function formatCount(n: number | undefined): string {
  return n === undefined ? '—' : n.toLocaleString('en-US');
}

/** A signed delta with a fixed number of decimals: `+0.125`, `−2`. */
export function formatDelta(delta: number, digits = 3): string {
  if (delta === 0) return '±0';
  const text = Math.abs(delta)
    .toFixed(digits)
    .replace(/\.?0+$/, '');
  return `${delta > 0 ? '+' : '−'}${text}`;
}

/** Short form of a long id or digest for narrow columns. */
export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}
