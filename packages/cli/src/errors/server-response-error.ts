import { isWeftErrorCode, WeftError } from '@weft/protocol';

/**
 * The server answered with an error. `code` is the server's own `WEFT_…` code
 * when the body carried one this CLI knows, so callers branch on the same
 * codes as the server; `WEFT_HTTP_ERROR` otherwise, with the server's code
 * (if any) in `serverCode`.
 */
export class ServerResponseError extends WeftError {
  /** HTTP status the server answered with. */
  readonly statusCode: number;
  /** The offending request field, when the server named one. */
  readonly path: string | undefined;
  /** The code the server sent, known or not. */
  readonly serverCode: string | undefined;

  constructor({
    statusCode,
    code,
    message,
    path,
  }: {
    statusCode: number;
    code: string | undefined;
    message: string;
    path?: string | undefined;
  }) {
    super({ code: isWeftErrorCode(code) ? code : 'WEFT_HTTP_ERROR', message });
    this.statusCode = statusCode;
    this.serverCode = code;
    this.path = path;
  }
}
