/** What a redacted value is replaced by. */
export const REDACTED = '[REDACTED]';

/** Key names (lower-case) whose values are redacted unless `redactKeys` says otherwise. */
export const DEFAULT_REDACT_KEYS: ReadonlySet<string> = Object.freeze(
  new Set(['api_key', 'apikey', 'authorization', 'password', 'secret', 'token']),
) as ReadonlySet<string>;

/**
 * Shortest redacted value that is also scrubbed from free text (display
 * names, exception messages and stacks, other strings of the same call):
 * shorter ones ("1", "yes") would blank out ordinary words.
 */
export const MIN_SCRUBBED_LENGTH = 4;

const MAX_CACHED_KEYS = 4_096;

/**
 * A case-insensitive membership test for `keys` (which hold lower-case names).
 * Asked for every key of every call, so it answers most keys without a
 * lookup: a key whose first character (lower-cased) and length match no
 * redacted key cannot be one. The length part holds only while every
 * redacted key is ASCII: lower-casing then keeps a matching key's length
 * (the one non-ASCII character that lower-cases to ASCII, the Kelvin sign,
 * keeps it too). The rest is remembered: the same few keys (`role`,
 * `content`, `id`) recur in every call, so this saves a `toLowerCase` copy
 * per key. The memory is cleared when full rather than grown without bound.
 */
export function redactedKeyMatcher(keys: ReadonlySet<string>): (key: string) => boolean {
  if (keys.size === 0) return () => false;
  const ascii = [...keys].every((key) => [...key].every((ch) => ch.charCodeAt(0) < 0x80));
  // Bit (length & 31) of starts[c] is set when a redacted key starts with ASCII character c.
  const starts = new Uint32Array(128);
  for (const key of keys) {
    const c = key.charCodeAt(0);
    if (c < 128) starts[c] = (starts[c] as number) | (ascii ? 1 << (key.length & 31) : 0xffffffff);
  }
  const seen = new Map<string, boolean>();
  return (key) => {
    const c = key.charCodeAt(0);
    if (c < 128) {
      const lower = c >= 65 && c <= 90 ? c + 32 : c;
      if (((starts[lower] as number) & (1 << (key.length & 31))) === 0) return false;
    }
    let answer = seen.get(key);
    if (answer === undefined) {
      answer = keys.has(key.toLowerCase());
      if (seen.size >= MAX_CACHED_KEYS) seen.clear();
      seen.set(key, answer);
    }
    return answer;
  };
}
