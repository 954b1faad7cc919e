import type { OutboxFolderStatus, OutboxLockState } from '@weft/sdk/outbox';
import { formatPlainTable } from '../../render/index.js';

/** Column titles of `weft outbox status`, in order. */
export const OUTBOX_STATUS_COLUMNS = [
  'project',
  'segments',
  'records',
  'size',
  'oldest (UTC)',
  'lock',
] as const;

/** One row: the cells exactly as printed. */
export function outboxStatusRow(status: OutboxFolderStatus): string[] {
  return [
    status.project,
    String(status.segments),
    String(status.records),
    formatBytes(status.bytes),
    status.oldestSegmentAtMs === undefined ? '-' : formatTime(status.oldestSegmentAtMs),
    formatLock(status.lock),
  ];
}

/** The folders as a plain text table: header, a rule, one line per folder. */
export function formatOutboxStatusTable(folders: readonly OutboxFolderStatus[]): string {
  return formatPlainTable(OUTBOX_STATUS_COLUMNS, folders.map(outboxStatusRow));
}

/** `-` when free; the owner's pid when a live process holds it (a replay would be refused). */
export function formatLock(lock: OutboxLockState): string {
  switch (lock.state) {
    case 'none':
      return '-';
    case 'stale':
      return `stale${lock.pid === undefined ? '' : ` (pid ${lock.pid}, gone)`}`;
    case 'held':
      return lock.pid === undefined
        ? 'held'
        : `held by pid ${lock.pid}${lock.hostname ? ` on ${lock.hostname}` : ''}`;
  }
}

function formatTime(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '');
}

/** Binary units, as the outbox's own limits (`maxBytes`, `segmentBytes`) are given. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
