const BRAND = Symbol.for('weft.error');

/** Options every Weft error takes. */
export interface WeftErrorOptions {
  /** Stable, machine-readable code (`WEFT_…`); tests and callers branch on it. */
  code: string;
  /** What is wrong and what to do about it. */
  message: string;
  cause?: unknown;
}

/**
 * Base of every error Weft raises. `code` is stable across releases;
 * `isInstance` works across duplicated copies of the package (it checks a
 * `Symbol.for` brand, not the prototype chain).
 */
export class WeftError extends Error {
  readonly code: string;
  readonly [BRAND] = true;

  constructor({ code, message, cause }: WeftErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
  }

  /** True for any Weft error, whichever copy of the package created it. */
  static isInstance(value: unknown): value is WeftError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
