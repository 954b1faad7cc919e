import { WeftError } from '@weft/protocol';
import type { OptionIssue } from '../../errors/index.js';

/** Outbox options failed validation; the message names the option and what it got. */
export class InvalidOutboxOptionsError extends WeftError {
  /** Dotted path of the bad option (`maxBytes`, `batchRecords`, …); `''` for the options value itself. */
  readonly path: string;

  constructor({ option, detail }: OptionIssue) {
    super({ code: 'WEFT_INVALID_OPTIONS', message: `Invalid outbox options: ${detail}.` });
    this.path = option;
  }
}
