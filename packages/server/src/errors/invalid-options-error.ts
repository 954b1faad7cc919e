import { hasCode, WeftError } from '@weft/protocol';

/** Server options failed validation; the message names the option. */
export class InvalidOptionsError extends WeftError {
  readonly path: string;

  constructor(path: string, reason: string) {
    super({
      code: 'WEFT_INVALID_OPTIONS',
      message: `Invalid server option ${path || '(options)'}: ${reason}`,
    });
    this.path = path;
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is InvalidOptionsError {
    return hasCode(value, 'WEFT_INVALID_OPTIONS');
  }
}
