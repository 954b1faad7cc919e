import { isWeftErrorCode, WeftError } from './protocol.js';

/**
 * A request to the Weft API failed. `code` is the server's (`WEFT_NOT_FOUND`,
 * `WEFT_INVALID_REQUEST`, …) when it sent a code this UI knows,
 * `WEFT_SERVER_UNREACHABLE` when the server could not be reached,
 * `WEFT_HTTP_ERROR` otherwise; `serverCode` is whatever code the server
 * sent; `status` is the HTTP status (0 when unreachable).
 */
export class ApiError extends WeftError {
  readonly status: number;
  readonly serverCode: string | undefined;

  constructor(status: number, serverCode: string | undefined, message: string) {
    super({
      code: isWeftErrorCode(serverCode)
        ? serverCode
        : status === 0
          ? 'WEFT_SERVER_UNREACHABLE'
          : 'WEFT_HTTP_ERROR',
      message,
    });
    this.status = status;
    this.serverCode = serverCode;
  }
}
