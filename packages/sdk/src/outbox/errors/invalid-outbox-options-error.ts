import { WeftError } from '@weft/protocol';

/** Outbox options failed validation; the message names the option. */
export class InvalidOutboxOptionsError extends WeftError {
  /** Dotted path of the bad option (`maxBytes`, `batchRecords`, …). */
  readonly path: string;

  constructor(path: string, reason: string) {
    super({
      code: 'WEFT_INVALID_OPTIONS',
      message: `Invalid outbox option ${path || '(options)'}: ${reason}`,
    });
    this.path = path;
  }
}
