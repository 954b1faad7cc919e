import { hasCode, WeftError } from '@weft/protocol';

/** A request body larger than the server's `maxBodyBytes`. */
export class PayloadTooLargeError extends WeftError {
  readonly maxBytes: number;

  constructor(maxBytes: number, gotBytes?: number) {
    super({
      code: 'WEFT_PAYLOAD_TOO_LARGE',
      message: `Request body${gotBytes === undefined ? '' : ` of ${gotBytes} bytes`} is larger than the server's limit of ${maxBytes} bytes; send smaller batches or raise maxBodyBytes.`,
    });
    this.maxBytes = maxBytes;
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is PayloadTooLargeError {
    return hasCode(value, 'WEFT_PAYLOAD_TOO_LARGE');
  }
}
