import { useState } from 'preact/hooks';
import { useApp } from '../hooks/index.js';
import type { Call, Feedback, FeedbackValue } from '../api/index.js';
import { formatTime } from '../model/index.js';
import { ErrorBox } from './error-box.js';
import { ThumbsDownIcon, ThumbsUpIcon } from './icons.js';

/** A feedback value as shown in the list: thumbs as icons with their words for screen readers. */
function FeedbackValueText({ value }: { value: FeedbackValue }) {
  if (typeof value !== 'boolean') return <>{String(value)}</>;
  return (
    <span class={`thumb thumb-${value ? 'up' : 'down'}`} title={value ? 'thumbs up' : 'thumbs down'}>
      {value ? <ThumbsUpIcon /> : <ThumbsDownIcon />}
      <span class="visually-hidden">{value ? 'thumbs up' : 'thumbs down'}</span>
    </span>
  );
}

/**
 * Feedback on one call: thumbs up/down, a score, a comment, and the list of
 * what was given (by the UI, the SDK's `weft.feedback`, or any script).
 */
export function FeedbackPanel({ call }: { call: Call }) {
  const { api, project } = useApp();
  const [given, setGiven] = useState<Feedback[]>(call.feedback ?? []);
  const [score, setScore] = useState('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<Error | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const send = async (name: string, value: FeedbackValue) => {
    setBusy(true);
    setError(undefined);
    try {
      const text = comment.trim();
      const saved = await api.giveFeedback({
        project,
        callId: call.id,
        name,
        value,
        source: 'ui',
        ...(text ? { comment: text } : {}),
      });
      setGiven((list) => [...list, saved]);
      setComment('');
      setScore('');
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  const scoreValue = Number(score);
  const scoreValid = score.trim() !== '' && Number.isFinite(scoreValue);

  return (
    <div class="feedback-panel">
      <fieldset class="feedback-controls" aria-label="Give feedback">
        <button
          type="button"
          class="button"
          aria-label="Thumbs up"
          disabled={busy}
          onClick={() => send('thumbs', true)}
        >
          <ThumbsUpIcon />
        </button>
        <button
          type="button"
          class="button"
          aria-label="Thumbs down"
          disabled={busy}
          onClick={() => send('thumbs', false)}
        >
          <ThumbsDownIcon />
        </button>
        <input
          name="feedback-comment"
          placeholder="comment (optional)"
          value={comment}
          onInput={(e) => setComment((e.target as HTMLInputElement).value)}
        />
        <input
          name="feedback-score"
          class="score-input"
          inputMode="decimal"
          placeholder="score"
          value={score}
          aria-invalid={score !== '' && !scoreValid}
          onInput={(e) => setScore((e.target as HTMLInputElement).value)}
        />
        <button
          type="button"
          class="button"
          disabled={busy || !scoreValid}
          onClick={() => send('score', scoreValue)}
        >
          Add score
        </button>
      </fieldset>
      {error && <ErrorBox error={error} />}
      {given.length === 0 ? (
        <p class="muted">No feedback yet.</p>
      ) : (
        <ul class="feedback-list">
          {given.map((f) => (
            <li key={f.id} data-feedback-name={f.name}>
              <strong>{f.name}</strong>{' '}
              <span class="feedback-value">
                <FeedbackValueText value={f.value} />
              </span>
              {f.comment && <span class="feedback-comment"> — {f.comment}</span>}
              <span class="muted">
                {' '}
                · {f.source ?? 'sdk'} · {formatTime(f.createdAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
