/**
 * The ids of `rows` in the order the call query pages them: by `key`, ties
 * broken by id, both in `direction` (the keyset order of every sort field).
 */
export function sortedIds<T extends { id: string }>(
  rows: readonly T[],
  key: (row: T) => number | string,
  direction: 'asc' | 'desc',
): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      if (ka !== kb) return (ka < kb ? -1 : 1) * sign;
      return (a.id < b.id ? -1 : 1) * sign;
    })
    .map((row) => row.id);
}
