import type { ExceptionInfo } from '@weft/protocol';
import { REDACTED } from './redact.js';
import { Sanitizer } from './sanitize.js';
import type { SanitizeOptions } from './sanitize-options.js';

/**
 * Redaction of free text. Key rules (`redactKeys`, `redact`) decide about
 * values under keys; a display name, an exception message or a stack has no
 * key of its own. So two rules apply to them (see docs/values.md):
 *
 * 1. The string values redaction removed from the same call (its
 *    {@link Sanitizer.redactedStrings}) are replaced by `[REDACTED]` wherever
 *    they appear verbatim: "login hunter2" becomes "login [REDACTED]" when
 *    `password: 'hunter2'` was an input.
 * 2. The user's `redact(key, value, path)` is asked about each free-text
 *    field under a fixed key and path (`displayName`; `message` / `stack` at
 *    `['exception', …]`, causes at `['exception', 'cause', …]`): true
 *    replaces the whole text.
 */
export interface FreeTextRedaction {
  /** Values to scrub, longest first (so a secret containing another is replaced whole). */
  readonly secrets: readonly string[];
  readonly redact: SanitizeOptions['redact'];
}

/** The redaction of one record's free text, from the secrets its walk found. */
export function freeTextRedaction(
  secrets: readonly string[],
  options: SanitizeOptions | undefined,
): FreeTextRedaction {
  const unique = secrets.length < 2 ? secrets : [...new Set(secrets)].sort((a, b) => b.length - a.length);
  return { secrets: unique, redact: options?.redact };
}

/** True when redaction can change nothing (no secrets and no user function): the fast path. */
export function isNoRedaction(r: FreeTextRedaction): boolean {
  return r.secrets.length === 0 && r.redact === undefined;
}

/** `text` with every secret replaced. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** One free-text field, redacted by both rules. A user function that throws redacts (fail closed). */
export function redactText(
  r: FreeTextRedaction,
  key: string,
  text: string,
  path: readonly (string | number)[],
): string {
  if (r.redact !== undefined) {
    try {
      if (r.redact(key, text, path) === true) return REDACTED;
    } catch {
      return REDACTED;
    }
  }
  return scrubText(text, r.secrets);
}

/** An exception with its name, message, stack and every cause redacted. */
export function redactException(r: FreeTextRedaction, info: ExceptionInfo): ExceptionInfo {
  if (isNoRedaction(r)) return info;
  const convert = (e: ExceptionInfo, path: readonly string[]): ExceptionInfo => {
    const message = redactText(r, 'message', e.message, [...path, 'message']);
    const out: ExceptionInfo = { name: scrubText(e.name, r.secrets), message };
    if (e.stack !== undefined) {
      // A stack starts with "Name: message": a message the function redacted whole goes from the stack too.
      const whole = message === REDACTED && e.message !== REDACTED && e.message.length > 0;
      const stack = whole ? e.stack.split(e.message).join(REDACTED) : e.stack;
      out.stack = redactText(r, 'stack', stack, [...path, 'stack']);
    }
    if (e.cause !== undefined) out.cause = convert(e.cause, [...path, 'cause']);
    return out;
  };
  return convert(info, ['exception']);
}

/**
 * Scrubs every string of a walked (JSON-like: plain objects, arrays, leaves)
 * value in place; returns the value (a new string when the root is one).
 * Runs only when the record's walk redacted something.
 */
export function scrubStrings(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return scrubText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  const stack: Record<string, unknown>[] = [value as Record<string, unknown>];
  const seen = new Set<object>();
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (seen.has(node)) continue; // the walk shares repeated references
    seen.add(node);
    for (const key of Object.keys(node)) {
      const member = node[key];
      if (typeof member === 'string') node[key] = scrubText(member, secrets);
      else if (member !== null && typeof member === 'object') stack.push(member as Record<string, unknown>);
    }
  }
  return value;
}

/**
 * The string values redaction would remove from `value` (a separate walk
 * without hooks: nothing is saved or uploaded). For a record that does not
 * carry the values its free text may quote, such as a call's end record and
 * the inputs its exception may mention.
 */
export function redactedStringsOf(value: unknown, options: SanitizeOptions | undefined): readonly string[] {
  const { onObject: _o, onBlob: _b, onError: _e, ...rules } = options ?? {};
  const walk = new Sanitizer(value, rules);
  walk.step(Number.POSITIVE_INFINITY);
  return walk.redactedStrings;
}
