import type { AlertState } from '../../api/index.js';

const CLASS: Record<AlertState, string> = {
  ok: 'status-success',
  warning: 'status-warning',
  critical: 'status-error',
  nodata: 'status-running',
};

/** An alert state as a coloured label with its name (colour is never the only cue). */
export function AlertStateBadge({ state }: { state: AlertState }) {
  return <span class={`status ${CLASS[state]}`}>{state}</span>;
}
