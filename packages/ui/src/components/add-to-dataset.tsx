import { useState } from 'preact/hooks';
import { useApp } from '../hooks/index.js';
import type { DatasetFromCallsResponse } from '../api/index.js';
import { href } from '../router/index.js';
import { ErrorBox } from './error-box.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,255}$/;

/**
 * "Add to dataset" for the selected calls: publishes a new version of the
 * named dataset with one row per call (appended to its latest version), each
 * row pointing back to its call.
 */
export function AddToDataset({ callIds, onDone }: { callIds: string[]; onDone: () => void }) {
  const { api, project } = useApp();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | undefined>(undefined);
  const [done, setDone] = useState<DatasetFromCallsResponse | undefined>(undefined);
  const valid = NAME.test(name) && callIds.length > 0;
  const add = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setDone(await api.datasetFromCalls({ project, name, callIds, append: true }));
      onDone();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="add-to-dataset">
      <input
        name="dataset-name"
        placeholder="dataset name"
        value={name}
        onInput={(e) => setName((e.target as HTMLInputElement).value.trim())}
      />
      <button type="button" class="button" disabled={!valid || busy} onClick={add}>
        Add {callIds.length} to dataset
      </button>
      {done && (
        <span class="muted" role="status">
          {' '}
          <a href={href(project, ['objects', done.name])}>
            {done.name} v{done.version}
          </a>{' '}
          has {done.rowCount} rows
        </span>
      )}
      {error && <ErrorBox error={error} />}
    </span>
  );
}
