import { useState } from 'preact/hooks';
import type { SavedPanel } from '../../api/index.js';
import { useApp } from '../../hooks/index.js';
import { href, navigate } from '../../router/index.js';

/**
 * Saves the panels being shown, edited as JSON, under a name: a new custom
 * dashboard, or a new version of this one. The server checks the panels
 * (measures, groups, filters) and its message names what is wrong.
 */
export function DashboardEditor({
  name,
  panels,
  onClose,
}: {
  name: string;
  panels: readonly SavedPanel[];
  onClose: () => void;
}) {
  const { api, project } = useApp();
  const [draftName, setDraftName] = useState(name);
  const [text, setText] = useState(JSON.stringify(panels, null, 2));
  const [error, setError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      setError(`The panels are not JSON: ${(e as Error).message}`);
      return;
    }
    setSaving(true);
    try {
      await api.saveDashboard({ project, name: draftName, panels: parsed as SavedPanel[] });
      onClose();
      navigate(href(project, ['dashboards', draftName]));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      class="dashboard-editor"
      aria-label="Edit dashboard"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label>
        Name
        <input
          name="dashboard-name"
          value={draftName}
          required
          onInput={(e) => setDraftName((e.target as HTMLInputElement).value.trim())}
        />
      </label>
      <label class="grow">
        Panels (JSON: title, measures, groupBy, filter, unit; see docs/monitoring.md)
        <textarea
          name="panels"
          rows={16}
          spellcheck={false}
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      {error && (
        <p class="error-box" role="alert">
          {error}
        </p>
      )}
      <div class="editor-actions">
        <button type="submit" class="button primary" disabled={saving || draftName === ''}>
          Save dashboard
        </button>
        <button type="button" class="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
