import { hasCode, WeftError } from '@weft/protocol';

/** A /v1 request came without the server's bearer token, or with a wrong one. */
export class UnauthorizedError extends WeftError {
  constructor(message: string) {
    super({ code: 'WEFT_UNAUTHORIZED', message });
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is UnauthorizedError {
    return hasCode(value, 'WEFT_UNAUTHORIZED');
  }
}
