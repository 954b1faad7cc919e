import { hasCode, WeftError } from '@weft/protocol';

/** The addressed call, object, table, file or route does not exist. */
export class NotFoundError extends WeftError {
  constructor(message: string) {
    super({ code: 'WEFT_NOT_FOUND', message });
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is NotFoundError {
    return hasCode(value, 'WEFT_NOT_FOUND');
  }
}
