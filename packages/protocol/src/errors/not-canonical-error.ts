import { WeftError } from './weft-error.js';

/** A value that has no canonical encoding (only JSON-like data has one). */
export class NotCanonicalError extends WeftError {
  /** Where in the value the offending part sits, as path segments. */
  readonly path: readonly (string | number)[];

  constructor(path: readonly (string | number)[], reason: string) {
    super({
      code: 'WEFT_NOT_CANONICAL',
      message: `Value at ${path.length ? path.join('.') : '(root)'} has no canonical encoding: ${reason}. Only null, booleans, finite numbers, strings, arrays and plain objects can be digested.`,
    });
    this.path = path;
  }
}
