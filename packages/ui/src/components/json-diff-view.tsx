import { useMemo } from 'preact/hooks';
import { type ValueDifference, valueDifferences } from '../api/index.js';

/** Most differences listed between two versions (the rest would not be read). */
const MAX_ROWS = 500;

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** One row of a {@link DiffTable}: a path already formatted for reading (`messages[3].content`). */
export interface DiffRow {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

/** Rows for a {@link DiffTable} from value differences (as `valueDifferences` and the trace diff API give them). */
export function diffRows(differences: readonly ValueDifference[]): DiffRow[] {
  return differences.map((d) => ({ path: d.path || '(root)', kind: d.kind, before: d.left, after: d.right }));
}

/** Differences as a table, one line per changed path, with the two sides' values. */
export function DiffTable({
  rows,
  beforeLabel = 'Before',
  afterLabel = 'After',
}: {
  rows: readonly DiffRow[];
  beforeLabel?: string;
  afterLabel?: string;
}) {
  return (
    <table class="data-table diff-table">
      <thead>
        <tr>
          <th>Path</th>
          <th>Change</th>
          <th>{beforeLabel}</th>
          <th>{afterLabel}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((e) => (
          <tr key={`${e.kind}:${e.path}`} class={`diff-${e.kind}`}>
            <td>
              <code>{e.path}</code>
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

/** The differences between two values, one line per changed path. */
export function JsonDiffView({ before, after }: { before: unknown; after: unknown }) {
  const rows = useMemo(() => diffRows(valueDifferences(before, after, MAX_ROWS)), [before, after]);
  if (rows.length === 0) return <p class="muted">The two versions have equal values.</p>;
  return <DiffTable rows={rows} />;
}
