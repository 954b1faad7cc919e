import { WeftError } from '@weft/protocol';

/** An operation that needs the network was asked of a client after `shutdown()`. */
export class ClientClosedError extends WeftError {
  constructor(what: string) {
    super({
      code: 'WEFT_CLIENT_CLOSED',
      message: `Cannot ${what}: this Weft client was shut down. Call weft.init() again to create a new one.`,
    });
  }
}
