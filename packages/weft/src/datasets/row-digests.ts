import { digestValue } from '@weft/protocol';

/** Rows hashed per turn before yielding, so hashing 100,000 rows never blocks the loop for long. */
const ROWS_PER_SLICE = 256;

/**
 * `digestValue(row)` of every row, computed in slices with a `setImmediate`
 * between them: the caller's turn is not held for the whole dataset, and
 * timers and I/O keep running while a large dataset is hashed.
 */
export async function rowDigests(rows: readonly unknown[]): Promise<string[]> {
  const out = new Array<string>(rows.length);
  for (let start = 0; start < rows.length; start += ROWS_PER_SLICE) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const end = Math.min(rows.length, start + ROWS_PER_SLICE);
    for (let i = start; i < end; i++) out[i] = digestValue(rows[i]);
  }
  return out;
}
