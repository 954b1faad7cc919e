import { WeftError } from '@weft/protocol';
import type { OptionIssue } from '../errors/index.js';

/** `SanitizeOptions` that cannot be used; the message names the option and what it got. */
export class InvalidSanitizeOptionsError extends WeftError {
  constructor({ detail }: OptionIssue) {
    super({ code: 'WEFT_INVALID_OPTIONS', message: `Invalid value options: ${detail}.` });
  }
}
