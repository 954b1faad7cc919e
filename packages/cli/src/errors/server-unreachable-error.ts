import { WeftError } from '@weft/protocol';

/** No Weft server answered at the address the CLI was pointed at (exit 1). */
export class ServerUnreachableError extends WeftError {
  readonly url: string;

  constructor(url: string, cause: unknown) {
    const reason =
      cause instanceof Error ? cause.message || (cause as { code?: string }).code : String(cause);
    super({
      code: 'WEFT_SERVER_UNREACHABLE',
      message: `Server unreachable at ${url} (${reason}). Start one with \`weft serve\`, or point --url / WEFT_URL at a running server.`,
      cause,
    });
    this.url = url;
  }
}
