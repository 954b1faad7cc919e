import { formatRelativeTime, formatTime } from '../model/index.js';

/**
 * A moment as tables show it: relative ("5 min ago"), with the absolute
 * date and time on hover and in `datetime`. Re-rendered with the view (live
 * views refresh every few seconds), so it stays roughly current.
 */
export function TimeAgo({ ms }: { ms: number }) {
  const date = new Date(ms);
  const valid = !Number.isNaN(date.getTime());
  return (
    <time dateTime={valid ? date.toISOString() : undefined} title={valid ? formatTime(ms) : undefined}>
      {formatRelativeTime(ms, Date.now())}
    </time>
  );
}
