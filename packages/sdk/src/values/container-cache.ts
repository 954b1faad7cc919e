import type { ResolvedSanitizeOptions } from './sanitize-options.js';

/**
 * What the safe encoder wrote for one of the caller's containers (a
 * conversation's `messages`, a tool list): the tape tokens it read, the bytes
 * it wrote for them (after the values-sent-once hook replaced what it
 * replaces) and what the hook was told, so the same content in a later record
 * costs a comparison of tokens instead of an encode and a deduplication.
 */
export interface CachedContainer {
  /** The container's tokens on the tape it was written from (see `SnapshotTape`). */
  readonly tokens: readonly unknown[];
  /** The bytes written for them; a stable copy, never written to. */
  readonly bytes: Uint8Array;
  /** Values the encoder counted inside the container (the container itself not included). */
  readonly nodes: number;
  /** The depth it was written at, and the depth from which the hook was asked about values (see `SafeWriter.hookFrom`). */
  readonly depth: number;
  readonly hookFrom: number;
  /** The rules it was written under (resolved options are one object per set of options). */
  readonly options: ResolvedSanitizeOptions;
  /** The hook it was written with, and what the hook recorded meanwhile (see `WrittenValueHook.replay`). */
  readonly hook: object | undefined;
  readonly replay: readonly unknown[];
}

/** A container seen once: cached from its second sighting, so a container made fresh for each call costs no copy. */
const SEEN_ONCE = 0;

/**
 * Encoded containers by the caller's container object (the tape's origin).
 * Weak, so an entry lives as long as the caller keeps the container.
 *
 * Valid only for exactly the same tokens: an entry is used when every token
 * of the container's segment on the new tape is `===` the cached one, at
 * every depth — the snapshot copied the container as it is now, so a
 * mutation anywhere inside it (a pushed item, a replaced item, a changed
 * field of a nested item) shows as a different token and the container is
 * written anew. (`===` takes -0 for 0 and never equates NaN: the encoder
 * writes -0 as 0 either way, and NaN is not written by it.)
 */
const cache = new WeakMap<object, CachedContainer | typeof SEEN_ONCE>();

/**
 * The cached encoding of `origin` whose tokens are those of `slots` from
 * `at` on, written under the same rules, hook and depth, with the hook asked from the same depth, or `undefined`.
 */
export function cachedContainer(
  origin: object,
  slots: readonly unknown[],
  at: number,
  options: ResolvedSanitizeOptions,
  hook: object | undefined,
  depth: number,
  hookFrom: number,
): CachedContainer | undefined {
  const entry = cache.get(origin);
  if (
    entry === undefined ||
    entry === SEEN_ONCE ||
    entry.options !== options ||
    entry.hook !== hook ||
    entry.depth !== depth ||
    entry.hookFrom !== hookFrom
  )
    return undefined;
  const tokens = entry.tokens;
  const n = tokens.length;
  if (at + n > slots.length) return undefined;
  for (let i = 0; i < n; i++) if (slots[at + i] !== tokens[i]) return undefined;
  return entry;
}

/** Whether `origin` is worth caching now: true from its second sighting on. */
export function seenBefore(origin: object): boolean {
  if (cache.has(origin)) return true;
  cache.set(origin, SEEN_ONCE);
  return false;
}

/** Remembers what was written for `origin`. */
export function cacheContainer(origin: object, entry: CachedContainer): void {
  cache.set(origin, entry);
}
