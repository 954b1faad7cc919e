import { WeftError } from '@weft/protocol';

/**
 * A project token asked for what only the admin token may do (deleting
 * calls, changing retention, reading the deletion log). The message says
 * what was asked, never the token.
 */
export class AdminRequiredError extends WeftError {
  constructor(action: string) {
    super({
      code: 'WEFT_ADMIN_REQUIRED',
      message: `${action} needs the admin token (the server's --token); a project token may not.`,
    });
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is AdminRequiredError {
    return WeftError.isInstance(value) && value.code === 'WEFT_ADMIN_REQUIRED';
  }
}
