import { hasCode, WeftError } from '@weft/protocol';

/** `weft.feedback` was given a call id or feedback it cannot send; `field` names what is wrong. */
export class InvalidFeedbackError extends WeftError {
  /** Dotted path of the offending field: `callId`, `name`, `value`, `comment`, `source`. */
  readonly field: string;

  constructor(field: string, message: string) {
    super({ code: 'WEFT_INVALID_FEEDBACK', message });
    this.field = field;
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is InvalidFeedbackError {
    return hasCode(value, 'WEFT_INVALID_FEEDBACK');
  }
}
