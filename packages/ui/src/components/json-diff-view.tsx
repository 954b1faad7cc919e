import { useMemo } from 'preact/hooks';
import { formatPath, jsonDiff } from '../model/index.js';

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** The differences between two values, one line per changed path. */
export function JsonDiffView({ before, after }: { before: unknown; after: unknown }) {
  const entries = useMemo(() => jsonDiff(before, after), [before, after]);
  if (entries.length === 0) return <p class="muted">The two versions have equal values.</p>;
  return (
    <table class="data-table diff-table">
      <thead>
        <tr>
          <th>Path</th>
          <th>Change</th>
          <th>Before</th>
          <th>After</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={`${e.kind}:${formatPath(e.path)}`} class={`diff-${e.kind}`}>
            <td>
              <code>{formatPath(e.path)}</code>
            </td>
            <td>{e.kind}</td>
            <td class="diff-before">{e.kind === 'added' ? '' : <code>{preview(e.before)}</code>}</td>
            <td class="diff-after">{e.kind === 'removed' ? '' : <code>{preview(e.after)}</code>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
