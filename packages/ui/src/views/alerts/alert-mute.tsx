import { useState } from 'preact/hooks';
import type { AlertStatus } from '../../api/index.js';
import { useApp } from '../../hooks/index.js';
import { formatTime } from '../../model/index.js';
import { mutedNow } from './alert-text.js';

const HOUR = 3_600_000;

/** How long a mute lasts, as offered. */
const SNOOZES = [
  { label: '1 hour', ms: HOUR },
  { label: '8 hours', ms: 8 * HOUR },
  { label: '1 day', ms: 24 * HOUR },
  { label: '1 week', ms: 7 * 24 * HOUR },
] as const;

/**
 * Mutes (snoozes) an alert for a chosen time, or unmutes it. A muted alert
 * still tracks its state and records its history; it delivers nothing
 * until the time passes. `onChange` runs after the server took the change
 * (the caller reloads what it shows); a refusal is shown here as it says.
 */
export function AlertMute({ rule, onChange }: { rule: AlertStatus['rule']; onChange: () => void }) {
  const { api, project } = useApp();
  const [snooze, setSnooze] = useState<number>(SNOOZES[0].ms);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const muted = mutedNow(rule, Date.now());
  const send = (until: number | null) => {
    setBusy(true);
    setError(undefined);
    api.muteAlert(project, rule.name, until).then(
      () => {
        setBusy(false);
        onChange();
      },
      (e: Error) => {
        setBusy(false);
        setError(e.message);
      },
    );
  };
  // Inside a table row that opens on click and Enter: keep both here.
  const keep = (event: Event) => event.stopPropagation();
  return (
    <fieldset
      class="alert-mute"
      aria-label={`Mute ${rule.name}`}
      data-muted={muted}
      onClick={keep}
      onKeyDown={keep}
    >
      {muted ? (
        <>
          <span class="muted-until">muted until {formatTime(rule.mutedUntil as number)}</span>{' '}
          <button type="button" class="button small" disabled={busy} onClick={() => send(null)}>
            Unmute
          </button>
        </>
      ) : (
        <>
          <select
            aria-label={`Mute ${rule.name} for`}
            value={snooze}
            disabled={busy}
            onChange={(e) => setSnooze(Number((e.target as HTMLSelectElement).value))}
          >
            {SNOOZES.map((s) => (
              <option key={s.ms} value={s.ms}>
                {s.label}
              </option>
            ))}
          </select>{' '}
          <button
            type="button"
            class="button small"
            disabled={busy}
            onClick={() => send(Date.now() + snooze)}
          >
            Mute
          </button>
        </>
      )}
      {error !== undefined && (
        <span class="error-text" role="alert">
          {' '}
          {error}
        </span>
      )}
    </fieldset>
  );
}
