import { WeftError } from '../../../protocol/src/errors/weft-error.js';

/**
 * A request to the Weft API failed. `code` is the server's (`WEFT_NOT_FOUND`,
 * `WEFT_INVALID_REQUEST`, …) when it sent one, `WEFT_NETWORK` when the server
 * could not be reached, `WEFT_HTTP` otherwise; `status` is the HTTP status
 * (0 for network errors).
 */
export class ApiError extends WeftError {
  readonly status: number;

  constructor(status: number, code: string, message: string) {
    super({ code, message });
    this.status = status;
  }
}
