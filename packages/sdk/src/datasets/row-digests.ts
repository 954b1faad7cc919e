import { canonicalJson, digestBytes } from '@weft/protocol';

/** Rows hashed per turn before yielding, so hashing 100,000 rows never blocks the loop for long. */
const ROWS_PER_SLICE = 256;

/** Each row's digest and the UTF-8 size of its canonical JSON (what an upload will carry). */
export interface HashedRows {
  digests: string[];
  /** Bytes of `canonicalJson(row)`, used to cut uploads into chunks under the server's body limit. */
  sizes: Uint32Array;
}

/**
 * `digestValue(row)` of every row, computed in slices with a `setImmediate`
 * between them: the caller's turn is not held for the whole dataset, and
 * timers and I/O keep running while a large dataset is hashed. The canonical
 * text is already in hand for the digest, so its size is recorded for free.
 */
export async function hashRows(rows: readonly unknown[]): Promise<HashedRows> {
  const digests = new Array<string>(rows.length);
  const sizes = new Uint32Array(rows.length);
  for (let start = 0; start < rows.length; start += ROWS_PER_SLICE) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const end = Math.min(rows.length, start + ROWS_PER_SLICE);
    for (let i = start; i < end; i++) {
      const canonical = canonicalJson(rows[i]);
      digests[i] = digestBytes(canonical);
      sizes[i] = Buffer.byteLength(canonical, 'utf8');
    }
  }
  return { digests, sizes };
}

/** `digestValue(row)` of every row, hashed like {@link hashRows}. */
export async function rowDigests(rows: readonly unknown[]): Promise<string[]> {
  return (await hashRows(rows)).digests;
}
