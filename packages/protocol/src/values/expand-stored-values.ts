import { collectValueRefs, expandValueRefs } from './value-ref.js';

/** Deepest nesting of values inside values that is expanded (a guard against crafted input, not a real limit). */
const MAX_NESTING = 64;

/** A deduplicated value as stored: decoded, its markers of other values in place; an array as its items after `prev`. */
export interface StoredValueNode {
  readonly isArray: boolean;
  readonly prev: string | undefined;
  readonly decoded: unknown;
}

const UNRESOLVED: unique symbol = Symbol('unresolved');

/**
 * The full value of each of `digests`, from the stored values `lookup`
 * gives: plain values with their own markers expanded, arrays as the items
 * of their whole `prev` chain (oldest first). A digest whose value, chain or
 * nested values `lookup` lacks is left out, so its marker stays visible to
 * the reader; so is one nested deeper than 64 levels. `memo` keeps the values
 * expanded so far (pass one map to share them across calls).
 */
export function expandStoredValues(
  digests: Iterable<string>,
  lookup: (digest: string) => StoredValueNode | undefined,
  memo: Map<string, unknown> = new Map(),
): Map<string, unknown> {
  const resolved = new Map<string, unknown>();
  for (const digest of digests) {
    const value = expand(digest, lookup, memo, 0);
    if (value !== UNRESOLVED) resolved.set(digest, value);
  }
  return resolved;
}

function expand(
  digest: string,
  lookup: (digest: string) => StoredValueNode | undefined,
  memo: Map<string, unknown>,
  nesting: number,
): unknown {
  if (memo.has(digest)) return memo.get(digest);
  const entry = lookup(digest);
  if (entry === undefined || nesting > MAX_NESTING) return UNRESOLVED;
  let value: unknown;
  if (!entry.isArray) {
    value = expandNested(entry.decoded, lookup, memo, nesting);
  } else {
    // Walk the chain back to its first node, then append items oldest first.
    const chain: StoredValueNode[] = [entry];
    const seen = new Set<string>([digest]);
    for (let prev = entry.prev; prev !== undefined; ) {
      const node = lookup(prev);
      if (node === undefined || !node.isArray || seen.has(prev)) return UNRESOLVED;
      seen.add(prev);
      chain.push(node);
      prev = node.prev;
    }
    const items: unknown[] = [];
    for (let i = chain.length - 1; i >= 0; i--) {
      const decoded = (chain[i] as StoredValueNode).decoded;
      if (!Array.isArray(decoded)) return UNRESOLVED;
      for (const item of decoded) items.push(expandNested(item, lookup, memo, nesting));
    }
    value = items;
  }
  memo.set(digest, value);
  return value;
}

/** `value` with the markers it holds expanded (those that resolve). */
function expandNested(
  value: unknown,
  lookup: (digest: string) => StoredValueNode | undefined,
  memo: Map<string, unknown>,
  nesting: number,
): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const inner = collectValueRefs(value, new Set());
  if (inner.size === 0) return value;
  const resolved = new Map<string, unknown>();
  for (const digest of inner) {
    const expanded = expand(digest, lookup, memo, nesting + 1);
    if (expanded !== UNRESOLVED) resolved.set(digest, expanded);
  }
  return expandValueRefs(value, resolved);
}
