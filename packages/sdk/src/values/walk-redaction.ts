import { MIN_SCRUBBED_LENGTH } from './redact.js';
import type { ResolvedSanitizeOptions } from './sanitize-options.js';
import type { WalkErrors } from './walk-errors.js';
import { childPath, type Frame, type Key } from './walk-frame.js';

/**
 * Redaction during the walk: which members are redacted (a default key, or
 * the `redact` function's yes) and the string values it removed, which the
 * record's free text is then scrubbed of (see `free-text.ts`).
 */
export class WalkRedaction {
  /** String values redacted so far (at least {@link MIN_SCRUBBED_LENGTH} characters). */
  readonly strings: string[] = [];
  readonly #options: ResolvedSanitizeOptions;
  readonly #errors: WalkErrors;

  constructor(options: ResolvedSanitizeOptions, errors: WalkErrors) {
    this.#options = options;
    this.#errors = errors;
  }

  /**
   * Whether `src[key]` is redacted by its key alone, decided before the value
   * is read so its getter never runs; its data value is remembered.
   */
  redactsKey(src: object, key: string): boolean {
    if (!this.#options.isRedactedKey(key)) return false;
    try {
      this.#remember(Object.getOwnPropertyDescriptor(src, key)?.value);
    } catch {
      // A Proxy trap threw: the value stays redacted; only its scrubbing from free text is lost.
    }
    return true;
  }

  /** Whether the `redact` function redacts `value` (already read) at `frame`'s entry `place`. */
  functionRedacts(key: string, value: unknown, frame: Frame, place: Key): boolean {
    const redact = this.#options.redact;
    if (redact === undefined) return false;
    const path = childPath(frame, place);
    let redacted: boolean;
    try {
      redacted = redact(key, value, path) === true;
    } catch (error) {
      // Fail closed: a redaction rule that cannot decide must not leak the value.
      this.#errors.report(error, path);
      redacted = true;
    }
    if (redacted) this.#remember(value);
    return redacted;
  }

  /** Whether a Map entry's string key redacts its value (already read): by its key or by the `redact` function. */
  redactsEntry(key: string, value: unknown, frame: Frame, place: Key): boolean {
    if (this.#options.isRedactedKey(key)) {
      this.#remember(value);
      return true;
    }
    return this.functionRedacts(key, value, frame, place);
  }

  #remember(value: unknown): void {
    if (typeof value === 'string' && value.length >= MIN_SCRUBBED_LENGTH) this.strings.push(value);
  }
}
