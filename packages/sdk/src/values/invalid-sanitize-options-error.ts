import { WeftError } from '@weft/protocol';

/** `SanitizeOptions` that cannot be used; the message names the option and what it got. */
export class InvalidSanitizeOptionsError extends WeftError {
  constructor(message: string) {
    super({ code: 'WEFT_INVALID_OPTIONS', message: `Invalid value options: ${message}` });
  }
}
