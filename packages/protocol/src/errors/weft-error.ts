import type { WeftErrorCode } from './error-codes.js';

const BRAND = Symbol.for('weft.error');

/** Options every Weft error takes. */
export interface WeftErrorOptions {
  /** Stable, machine-readable code (one of `WEFT_ERROR_CODES`); callers branch on it with `hasCode`. */
  code: WeftErrorCode;
  /** What is wrong and what to do about it. */
  message: string;
  cause?: unknown;
}

/**
 * Base of every error Weft raises. `code` is stable across releases (check
 * it with `hasCode`); `isInstance` works across duplicated copies of the
 * package (it checks a `Symbol.for` brand, not the prototype chain).
 */
export class WeftError extends Error {
  readonly code: WeftErrorCode;
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
