import { collectValueRefs, decodeMsgpack, expandValueRefs } from '@weft/protocol';
import type { Storage } from '../storage/index.js';
import type { StoredValue } from '../storage/index.js';

/** Deepest nesting of values inside values that is expanded (a guard against crafted input, not a real limit). */
const MAX_NESTING = 64;

/** The stored values a read needs, decoded. */
interface Loaded {
  stored: StoredValue;
  decoded: unknown;
}

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
  const memo = new Map<string, unknown>();
  const resolved = new Map<string, unknown>();
  for (const digest of digests) {
    const value = expand(digest, loaded, memo, 0);
    if (value !== UNRESOLVED) resolved.set(digest, value);
  }
  return resolved;
}

/** Reads `digests` and everything they refer to, one lookup per level (an array's `prev` is one level down). */
async function loadValues(
  storage: Storage,
  project: string,
  digests: ReadonlySet<string>,
): Promise<Map<string, Loaded>> {
  const loaded = new Map<string, Loaded>();
  const asked = new Set<string>(digests);
  let frontier = [...digests];
  while (frontier.length > 0) {
    const found = await storage.readValues(project, frontier);
    const next = new Set<string>();
    for (const [digest, stored] of found) {
      const decoded = decodeMsgpack(stored.bytes);
      loaded.set(digest, { stored, decoded });
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

const UNRESOLVED: unique symbol = Symbol('unresolved');

function expand(
  digest: string,
  loaded: ReadonlyMap<string, Loaded>,
  memo: Map<string, unknown>,
  nesting: number,
): unknown {
  if (memo.has(digest)) return memo.get(digest);
  const entry = loaded.get(digest);
  if (entry === undefined || nesting > MAX_NESTING) return UNRESOLVED;
  let value: unknown;
  if (!entry.stored.isArray) {
    value = expandNested(entry.decoded, loaded, memo, nesting);
  } else {
    // Walk the chain back to its first node, then append items oldest first.
    const chain: Loaded[] = [entry];
    const seen = new Set<string>([digest]);
    for (let prev = entry.stored.prev; prev !== undefined; ) {
      const node = loaded.get(prev);
      if (node === undefined || !node.stored.isArray || seen.has(prev)) return UNRESOLVED;
      seen.add(prev);
      chain.push(node);
      prev = node.stored.prev;
    }
    const items: unknown[] = [];
    for (let i = chain.length - 1; i >= 0; i--) {
      const decoded = chain[i]!.decoded;
      if (!Array.isArray(decoded)) return UNRESOLVED;
      for (const item of decoded) items.push(expandNested(item, loaded, memo, nesting));
    }
    value = items;
  }
  memo.set(digest, value);
  return value;
}

/** `value` with the markers it holds expanded (those that resolve). */
function expandNested(
  value: unknown,
  loaded: ReadonlyMap<string, Loaded>,
  memo: Map<string, unknown>,
  nesting: number,
): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const inner = collectValueRefs(value, new Set());
  if (inner.size === 0) return value;
  const resolved = new Map<string, unknown>();
  for (const digest of inner) {
    const expanded = expand(digest, loaded, memo, nesting + 1);
    if (expanded !== UNRESOLVED) resolved.set(digest, expanded);
  }
  return expandValueRefs(value, resolved);
}
