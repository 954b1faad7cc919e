import { useState } from 'preact/hooks';

/** A table column a user may hide or show. */
export interface ChoosableColumn {
  id: string;
  label: string;
  /** Shown until the user says otherwise. */
  defaultOn: boolean;
}

/**
 * Which of a table's columns are shown, chosen by the user and remembered
 * in this browser (localStorage, per table): a new column appears as its
 * default says until chosen.
 */
export function useColumns(table: string, columns: readonly ChoosableColumn[]) {
  const key = `weft.columns.${table}`;
  const [chosen, setChosen] = useState<Record<string, boolean>>(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(key) ?? '{}') as unknown;
      return saved && typeof saved === 'object' && !Array.isArray(saved)
        ? (saved as Record<string, boolean>)
        : {};
    } catch {
      return {};
    }
  });
  const shown = (id: string) => chosen[id] ?? columns.find((c) => c.id === id)?.defaultOn ?? true;
  const toggle = (id: string) => {
    const next = { ...chosen, [id]: !shown(id) };
    setChosen(next);
    try {
      localStorage.setItem(key, JSON.stringify(next));
    } catch {
      // Storage full or denied: the choice holds for this page only.
    }
  };
  return { shown, toggle };
}
