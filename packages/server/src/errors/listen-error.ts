import { hasCode, WeftError } from '@weft/protocol';

/** The server could not bind its address (port in use, address not available, …). */
export class ListenError extends WeftError {
  constructor(host: string, port: number, cause: unknown) {
    const code = (cause as { code?: string } | undefined)?.code;
    super({
      code: 'WEFT_LISTEN_FAILED',
      message: `Could not listen on ${host}:${port}${code ? ` (${code})` : ''}: ${
        code === 'EADDRINUSE'
          ? 'the port is taken; stop the other server or pick another port with --port'
          : String((cause as Error)?.message ?? cause)
      }`,
      cause,
    });
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is ListenError {
    return hasCode(value, 'WEFT_LISTEN_FAILED');
  }
}
