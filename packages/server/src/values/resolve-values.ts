import { collectValueRefs, decodeMsgpack, expandStoredValues, type StoredValueNode } from '@weft/protocol';
import type { Storage } from '../storage/index.js';

/**
 * The full value of each of `digests` (and of the values they refer to),
 * by digest: plain values decoded with their own markers expanded, arrays
 * as the items of their whole `prev` chain. A digest the project does not
 * store (or whose chain or nested values are incomplete) is left out, so its
 * marker stays visible to the reader.
 */
export async function resolveValues(
  storage: Storage,
  project: string,
  digests: ReadonlySet<string>,
): Promise<Map<string, unknown>> {
  const loaded = await loadValues(storage, project, digests);
  return expandStoredValues(digests, (digest) => loaded.get(digest));
}

/** Reads `digests` and everything they refer to, one lookup per level (an array's `prev` is one level down). */
async function loadValues(
  storage: Storage,
  project: string,
  digests: ReadonlySet<string>,
): Promise<Map<string, StoredValueNode>> {
  const loaded = new Map<string, StoredValueNode>();
  const asked = new Set<string>(digests);
  let frontier = [...digests];
  while (frontier.length > 0) {
    const found = await storage.readValues(project, frontier);
    const next = new Set<string>();
    for (const [digest, stored] of found) {
      const decoded = decodeMsgpack(stored.bytes);
      loaded.set(digest, { isArray: stored.isArray, prev: stored.prev, decoded });
      if (stored.prev !== undefined) next.add(stored.prev);
      collectValueRefs(decoded, next);
    }
    frontier = [];
    for (const digest of next) {
      if (asked.has(digest)) continue;
      asked.add(digest);
      frontier.push(digest);
    }
  }
  return loaded;
}
