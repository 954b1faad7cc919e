import type { ChoosableColumn } from '../../hooks/index.js';

/** A "Columns" menu of checkboxes, one per column that may be hidden. */
export function ColumnChooser({
  columns,
  shown,
  toggle,
}: {
  columns: readonly ChoosableColumn[];
  shown: (id: string) => boolean;
  toggle: (id: string) => void;
}) {
  return (
    <details class="column-chooser">
      <summary class="button small">Columns</summary>
      <fieldset aria-label="Columns shown">
        {columns.map((c) => (
          <label key={c.id} class="inline">
            <input
              type="checkbox"
              name={`column-${c.id}`}
              checked={shown(c.id)}
              onChange={() => toggle(c.id)}
            />{' '}
            {c.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
