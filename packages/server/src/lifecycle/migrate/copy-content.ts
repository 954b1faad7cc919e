import { type ContentRefKey, collectContentRefs, type Storage, valueRefsOf } from '../../storage/index.js';

/** What a copy of content wrote to the target: new values and files. */
export interface ContentCopied {
  values: number;
  files: number;
}

/**
 * Copies the deduplicated values and files that `refs` name (and what those
 * values name in turn: the arrays they extend, nested markers, files) from
 * `source` to `target`, skipping what the target already stores, so a
 * re-run copies none of it again. Call refs are ignored (calls are copied
 * as calls).
 */
export async function copyContent(
  source: Storage,
  target: Storage,
  project: string,
  refs: ReadonlySet<ContentRefKey>,
): Promise<ContentCopied> {
  const copied: ContentCopied = { values: 0, files: 0 };
  const seen = new Set<ContentRefKey>();
  let next = [...refs];
  while (next.length > 0) {
    const keys = next.filter((key) => !seen.has(key));
    for (const key of keys) seen.add(key);
    next = [];
    const digests = keys.filter((key) => key.startsWith('v:')).map((key) => key.slice(2));
    if (digests.length > 0) {
      const known = new Set(await target.knownValues(project, digests));
      const missing = digests.filter((digest) => !known.has(digest));
      const values = [...(await source.readValues(project, missing)).values()];
      if (values.length > 0) copied.values += (await target.putValues(project, values)).stored;
      for (const value of values) next.push(...valueRefsOf(value.prev, value.bytes));
    }
    for (const key of keys) {
      if (!key.startsWith('f:')) continue;
      const digest = key.slice(2);
      if ((await target.readFile(project, digest)) !== undefined) continue;
      const bytes = await source.readFile(project, digest);
      if (bytes !== undefined && (await target.putFile(project, digest, bytes)).created) copied.files += 1;
    }
  }
  return copied;
}

/** The values and files (and calls) `values` refer to. */
export function refsOf(...values: unknown[]): Set<ContentRefKey> {
  const into = new Set<ContentRefKey>();
  for (const value of values) if (value !== undefined && value !== null) collectContentRefs(value, into);
  return into;
}
