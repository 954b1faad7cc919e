import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ProjectSettingsResponse } from '../../api/index.js';
import { ErrorBox } from '../../components/index.js';
import { useApp, useLoad } from '../../hooks/index.js';

/** What the form asks for: the server's default, no retention, or a number of days. */
type Choice = 'default' | 'keep' | 'days';

const MAX_DAYS = 36_500;

function daysText(days: number | null): string {
  return days === null ? 'kept until deleted' : `${days.toLocaleString('en-US')} days`;
}

function choiceOf(settings: ProjectSettingsResponse): Choice {
  if (settings.retentionDays === undefined) return 'default';
  return settings.retentionDays === null ? 'keep' : 'days';
}

/** One of the form's choices: its radio button (checked while `choice` is its value) and its words. */
function RetentionChoice(props: {
  value: Choice;
  choice: Choice;
  onChoose: (choice: Choice) => void;
  children: ComponentChildren;
}) {
  const { value, choice, onChoose, children } = props;
  return (
    <label>
      <input
        type="radio"
        name="retention"
        value={value}
        checked={choice === value}
        onChange={() => onChoose(value)}
      />{' '}
      {children}
    </label>
  );
}

/**
 * The project's retention (docs/operations.md, "Retention"): what is in
 * force and where it comes from, and a form to change it (the server takes
 * the admin token only; its refusal is shown as it says it). Keep rules are
 * listed; they are set through the API.
 */
export function RetentionSettings() {
  const { api, project } = useApp();
  const load = useLoad((signal) => api.projectSettings(project, signal), [project]);
  const settings = load.data;
  const [choice, setChoice] = useState<Choice>('default');
  const [days, setDays] = useState('30');
  const [error, setError] = useState<Error | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (settings === undefined) return;
    setChoice(choiceOf(settings));
    if (typeof settings.retentionDays === 'number') setDays(String(settings.retentionDays));
  }, [settings]);
  const dayCount = Number(days);
  const validDays = /^\d+$/.test(days) && dayCount >= 1 && dayCount <= MAX_DAYS;
  const valid = choice !== 'days' || validDays;
  return (
    <section class="settings-section retention-settings" aria-labelledby="retention-heading">
      <h2 id="retention-heading">Retention</h2>
      {load.error && <ErrorBox error={load.error} retry={load.reload} />}
      {settings && (
        <p class="retention-in-force">
          Calls are <strong>{daysText(settings.effectiveRetentionDays)}</strong> (
          {settings.retentionDays === undefined ? "the server's default" : 'set for this project'}; server
          default: {daysText(settings.defaultRetentionDays)}). Older traces are deleted whole in the
          background, except traces with feedback, dataset rows, evaluation runs and traces a keep rule
          matches.
        </p>
      )}
      <form
        class="retention-form"
        onSubmit={async (e) => {
          e.preventDefault();
          if (!valid || settings === undefined) return;
          setError(undefined);
          setSaved(false);
          try {
            await api.saveProjectSettings(project, {
              ...(choice === 'default' ? {} : { retentionDays: choice === 'keep' ? null : dayCount }),
              keepRules: settings.keepRules,
            });
            setSaved(true);
            load.reload();
          } catch (err) {
            setError(err as Error);
          }
        }}
      >
        <fieldset>
          <legend>Keep this project's calls</legend>
          <RetentionChoice value="default" choice={choice} onChoose={setChoice}>
            as the server's default
          </RetentionChoice>
          <RetentionChoice value="keep" choice={choice} onChoose={setChoice}>
            until deleted
          </RetentionChoice>
          <RetentionChoice value="days" choice={choice} onChoose={setChoice}>
            for{' '}
            <input
              name="retention-days"
              type="number"
              min={1}
              max={MAX_DAYS}
              aria-label="days"
              value={days}
              aria-invalid={choice === 'days' && !validDays}
              onFocus={() => setChoice('days')}
              onInput={(e) => setDays((e.target as HTMLInputElement).value.trim())}
            />{' '}
            days
          </RetentionChoice>
        </fieldset>
        <button type="submit" class="button small" disabled={!valid || settings === undefined}>
          Save retention
        </button>
        {saved && <span class="retention-saved"> Saved.</span>}
        {error && <ErrorBox error={error} />}
      </form>
      {settings && settings.keepRules.length > 0 && (
        <div class="keep-rules">
          <h3>Keep rules</h3>
          <ul>
            {settings.keepRules.map((rule) => (
              <li key={rule.name}>
                <strong>{rule.name}</strong>: <code>{JSON.stringify(rule.filter)}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
