import { WeftError } from '@weft/protocol';

/** A /v1 request came without the server's bearer token, or with a wrong one. */
export class UnauthorizedError extends WeftError {
  constructor(message: string) {
    super({ code: 'WEFT_UNAUTHORIZED', message });
  }
}
