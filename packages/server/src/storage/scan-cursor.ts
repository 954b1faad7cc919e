/**
 * The position of a retention scan (`LifecycleStorage.expiredTraces`): the
 * start time and id of the last call scanned, as text. Every engine reads
 * the others' (and ignores what is not one: the scan starts over).
 */
export function encodeScanCursor(startedAt: number, id: string): string {
  return JSON.stringify([startedAt, id]);
}

/** `[startedAt, id]` of a scan cursor, or `undefined` for none or one this never made. */
export function decodeScanCursor(cursor: string | undefined): [number, string] | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(cursor);
    if (Array.isArray(parsed) && typeof parsed[0] === 'number' && typeof parsed[1] === 'string') {
      return [parsed[0], parsed[1]];
    }
  } catch {
    // Not a scan cursor: start from the beginning.
  }
  return undefined;
}
