/** What a redacted value is replaced by. */
export const REDACTED = '[REDACTED]';

/** Key names (lower-case) whose values are redacted unless `redactKeys` says otherwise. */
export const DEFAULT_REDACT_KEYS: ReadonlySet<string> = Object.freeze(
  new Set(['api_key', 'apikey', 'authorization', 'password', 'secret', 'token']),
) as ReadonlySet<string>;

const MAX_CACHED_KEYS = 4_096;
/**
 * Per key set, the answer for keys already seen. The same few keys (`role`,
 * `content`, `id`) recur in every call, so this saves a `toLowerCase` copy per
 * key; it is cleared when full rather than grown without bound.
 */
const cache = new WeakMap<ReadonlySet<string>, Map<string, boolean>>();

/** True when `key`, lower-cased, is in `keys`. */
export function isRedactedKey(keys: ReadonlySet<string>, key: string): boolean {
  if (keys.size === 0) return false;
  let seen = cache.get(keys);
  if (seen === undefined) {
    seen = new Map();
    cache.set(keys, seen);
  }
  let answer = seen.get(key);
  if (answer === undefined) {
    answer = keys.has(key.toLowerCase());
    if (seen.size >= MAX_CACHED_KEYS) seen.clear();
    seen.set(key, answer);
  }
  return answer;
}
