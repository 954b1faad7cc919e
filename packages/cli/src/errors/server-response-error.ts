import { WeftError } from '@weft/protocol';

/**
 * The server answered with an error. `code` is the server's own `WEFT_…` code
 * when the body carried one, so callers branch on the same codes as the server.
 */
export class ServerResponseError extends WeftError {
  /** HTTP status the server answered with. */
  readonly statusCode: number;
  /** The offending request field, when the server named one. */
  readonly path: string | undefined;

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
    super({ code: code ?? `WEFT_HTTP_${statusCode}`, message });
    this.statusCode = statusCode;
    this.path = path;
  }
}
