import { hasCode, WeftError } from '@weft/protocol';

/** The server was asked to listen beyond loopback without an auth token. */
export class TokenRequiredError extends WeftError {
  readonly host: string;

  constructor(host: string) {
    super({
      code: 'WEFT_TOKEN_REQUIRED',
      message: `Refusing to listen on ${host} without a token: anyone who can reach this address could read and write traces. Pass a token (weft serve --token …) or listen on 127.0.0.1.`,
    });
    this.host = host;
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is TokenRequiredError {
    return hasCode(value, 'WEFT_TOKEN_REQUIRED');
  }
}
