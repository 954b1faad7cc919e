import { WeftError } from '@weft/protocol';

/** The addressed call, object, table, file or route does not exist. */
export class NotFoundError extends WeftError {
  constructor(message: string) {
    super({ code: 'WEFT_NOT_FOUND', message });
  }
}
