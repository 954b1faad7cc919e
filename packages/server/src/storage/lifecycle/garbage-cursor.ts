/**
 * A garbage collection walks values (`v:`), then files (`f:`), by digest; its
 * cursor names the table and the last digest examined (`v:<digest>`), `f:`
 * when the files are next.
 */
export type GarbagePhase = 'v' | 'f';

/** Where a pass resumes: its table and the digest to read after (`''` from the start). */
export function readGarbageCursor(cursor: string | undefined): { phase: GarbagePhase; after: string } {
  return { phase: cursor?.startsWith('f:') ? 'f' : 'v', after: cursor === undefined ? '' : cursor.slice(2) };
}

/**
 * The cursor after a page of `rows` read with `limit`: the rest of the same
 * table when the page was full, the files after the values, else done.
 */
export function nextGarbageCursor(
  phase: GarbagePhase,
  rows: readonly { digest: string }[],
  limit: number,
): string | undefined {
  const last = rows.at(-1);
  if (rows.length === limit && last !== undefined) return `${phase}:${last.digest}`;
  return phase === 'v' ? 'f:' : undefined;
}
