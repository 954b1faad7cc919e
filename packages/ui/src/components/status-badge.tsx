import type { CallStatus } from '../api/index.js';

/** A call's status as a coloured label; the text is there too, colour is never the only cue. */
export function StatusBadge({ status }: { status: CallStatus }) {
  return <span class={`status status-${status}`}>{status}</span>;
}
