import { WeftError } from '@weft/protocol';

/** `append()` or `replay()` was called after `close()`. */
export class OutboxClosedError extends WeftError {
  constructor(dir: string, operation: string) {
    super({
      code: 'WEFT_OUTBOX_CLOSED',
      message: `Outbox ${dir} is closed; ${operation}() is refused. Open it again with Outbox.open().`,
    });
  }
}
