/** What a redacted value is replaced by. */
export const REDACTED = '[REDACTED]';

/**
 * The default rules: a key whose name, lower-cased and without separators
 * (see {@link normalizeKeyName}), ends with one of these is redacted —
 * `token` catches `access_token`, `refreshToken`, `X-Auth-Token`,
 * `github_token`; `apikey` catches `api_key`, `x-api-key`, `OPENAI_API_KEY`;
 * `secret` catches `client_secret`; `cookie` catches `Set-Cookie`.
 * Plurals are not endings: `max_tokens`, `prompt_tokens`, `tokens` are kept
 * (token counts are what a trace is for).
 */
export const DEFAULT_REDACTED_ENDINGS: readonly string[] = Object.freeze([
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'apikey',
  'privatekey',
  'secretaccesskey',
  'authorization',
  'cookie',
  'cookies',
  'jwt',
]);

/**
 * Shortest redacted value that is also scrubbed from free text (display
 * names, exception messages and stacks, other strings of the same call):
 * shorter ones ("1", "yes") would blank out ordinary words.
 */
export const MIN_SCRUBBED_LENGTH = 4;

const MAX_CACHED_KEYS = 4_096;

/** Characters a key name's spelling varies by (`api_key`, `api-key`, `api.key`, `api key`). */
const SEPARATORS = /[-_. ]/g;

/**
 * A key name as the rules compare it: lower-cased, without `-`, `_`, `.`
 * and spaces, so `API_KEY`, `x-api-key`, `apiKey` and `Api.Key` all end in
 * `apikey`.
 */
export function normalizeKeyName(key: string): string {
  return key.toLowerCase().replace(SEPARATORS, '');
}

/** Whether a normalized key name is redacted by the default rules or is one of `names` (normalized). */
function isRedactedName(name: string, names: ReadonlySet<string>): boolean {
  if (names.has(name)) return true;
  for (const ending of DEFAULT_REDACTED_ENDINGS) if (name.endsWith(ending)) return true;
  return false;
}

/**
 * Whether a key's value is redacted: by the default rules
 * ({@link DEFAULT_REDACTED_ENDINGS}) or because it is one of `names` (the
 * user's `redactKeys`), both compared after {@link normalizeKeyName}.
 *
 * Asked for every key of every call, so most keys are answered without
 * normalizing: a key whose last character (lower-cased, ASCII, not a
 * separator) ends no default ending and no name cannot match. The rest is
 * remembered: the same few keys (`role`, `content`, `id`) recur in every
 * call. The memory is cleared when full rather than grown without bound.
 */
export function redactedKeyMatcher(names: ReadonlySet<string> = new Set()): (key: string) => boolean {
  const normalized = new Set([...names].map(normalizeKeyName));
  // Bit c of lastChars is set when a rule or name ends with ASCII character c.
  const lastChars = new Uint8Array(128);
  for (const name of [...DEFAULT_REDACTED_ENDINGS, ...normalized]) {
    const c = name.charCodeAt(name.length - 1);
    if (c < 128) lastChars[c] = 1;
    else lastChars.fill(1); // a non-ASCII ending: no shortcut
  }
  const seen = new Map<string, boolean>();
  return (key) => {
    const c = key.charCodeAt(key.length - 1);
    if (c < 128) {
      const lower = c >= 65 && c <= 90 ? c + 32 : c;
      // A separator last (`token_`) is dropped by normalizing: only then is the last character not final.
      if (lastChars[lower] === 0 && lower !== 45 && lower !== 95 && lower !== 46 && lower !== 32)
        return false;
    }
    let answer = seen.get(key);
    if (answer === undefined) {
      answer = isRedactedName(normalizeKeyName(key), normalized);
      if (seen.size >= MAX_CACHED_KEYS) seen.clear();
      seen.set(key, answer);
    }
    return answer;
  };
}
