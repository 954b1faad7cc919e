import { decodeMsgpack, type ValueReadItem, type ValueReadResponse } from '@weft/protocol';
import type { Storage } from '../storage/index.js';

/**
 * `digests` as the project stores them, for a reader that caches values by
 * digest: each decoded as it is, its markers of other values left in place
 * (the reader asks for those it lacks), an array as its items after `prev`.
 * One storage lookup; asked twice, a digest is answered once.
 */
export async function readStoredValues(
  storage: Storage,
  project: string,
  digests: readonly string[],
): Promise<ValueReadResponse> {
  const asked = [...new Set(digests)];
  const found = await storage.readValues(project, asked);
  const values: ValueReadItem[] = [];
  const missing: string[] = [];
  for (const digest of asked) {
    const stored = found.get(digest);
    if (stored === undefined) {
      missing.push(digest);
      continue;
    }
    const decoded = decodeMsgpack(stored.bytes);
    if (!stored.isArray) values.push({ kind: 'value', digest, value: decoded });
    else if (Array.isArray(decoded))
      values.push({
        kind: 'items',
        digest,
        items: decoded,
        ...(stored.prev === undefined ? {} : { prev: stored.prev }),
      });
    // An array whose stored bytes are not an array cannot be read back: as if not stored.
    else missing.push(digest);
  }
  return { values, missing };
}
