/** What a redacted value is replaced by. */
export const REDACTED = '[REDACTED]';

/** Key names (lower-case) whose values are redacted unless `redactKeys` says otherwise. */
export const DEFAULT_REDACT_KEYS: ReadonlySet<string> = Object.freeze(
  new Set(['api_key', 'apikey', 'authorization', 'password', 'secret', 'token']),
) as ReadonlySet<string>;

const MAX_CACHED_KEYS = 4_096;

/**
 * A case-insensitive membership test for `keys` (which hold lower-case names).
 * It remembers its answers: the same few keys (`role`, `content`, `id`) recur
 * in every call, so this saves a `toLowerCase` copy per key. The memory is
 * cleared when full rather than grown without bound.
 */
export function redactedKeyMatcher(keys: ReadonlySet<string>): (key: string) => boolean {
  if (keys.size === 0) return () => false;
  const seen = new Map<string, boolean>();
  return (key) => {
    let answer = seen.get(key);
    if (answer === undefined) {
      answer = keys.has(key.toLowerCase());
      if (seen.size >= MAX_CACHED_KEYS) seen.clear();
      seen.set(key, answer);
    }
    return answer;
  };
}
