import { useState } from 'preact/hooks';
import { useApp } from '../hooks/index.js';
import { ErrorBox } from './error-box.js';

const LABEL = /^(?!latest$)(?!v[0-9]+$)[A-Za-z][A-Za-z0-9._-]{0,39}$/;

/** Points a label (`production`) of an object name at the shown version, moving it from another. */
export function LabelEditor({ name, version, onSet }: { name: string; version: number; onSet: () => void }) {
  const { api, project } = useApp();
  const [label, setLabel] = useState('');
  const [error, setError] = useState<Error | undefined>(undefined);
  const valid = LABEL.test(label);
  return (
    <form
      class="label-editor"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!valid) return;
        setError(undefined);
        try {
          await api.setObjectLabel(project, name, label, version);
          setLabel('');
          onSet();
        } catch (err) {
          setError(err as Error);
        }
      }}
    >
      <input
        name="label"
        placeholder="label, e.g. production"
        value={label}
        aria-invalid={label !== '' && !valid}
        onInput={(e) => setLabel((e.target as HTMLInputElement).value.trim())}
      />
      <button type="submit" class="button small" disabled={!valid}>
        Set on v{version}
      </button>
      {error && <ErrorBox error={error} />}
    </form>
  );
}
