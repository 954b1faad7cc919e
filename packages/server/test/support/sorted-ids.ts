/** A sort key as the call query orders by it: one value, or several compared in turn (op name, then start time). */
export type SortKey = number | string | readonly (number | string)[];

/**
 * The ids of `rows` in the order the call query pages them: by `key`, ties
 * broken by id, both in `direction` (the keyset order of every sort field).
 */
export function sortedIds<T extends { id: string }>(
  rows: readonly T[],
  key: (row: T) => SortKey,
  direction: 'asc' | 'desc',
): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const ka = [key(a)].flat();
      const kb = [key(b)].flat();
      for (let i = 0; i < ka.length; i++) {
        const [x, y] = [ka[i] as number | string, kb[i] as number | string];
        if (x !== y) return (x < y ? -1 : 1) * sign;
      }
      return (a.id < b.id ? -1 : 1) * sign;
    })
    .map((row) => row.id);
}
