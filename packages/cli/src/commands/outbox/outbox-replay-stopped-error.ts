import { WeftError, type WeftErrorCode } from '@weft/protocol';
import type { ReplayStop } from '@weft/sdk/outbox';

const codeOf: Record<ReplayStop['reason'], WeftErrorCode> = {
  unreachable: 'WEFT_SERVER_UNREACHABLE', // exit 1
  unauthorized: 'WEFT_UNAUTHORIZED', // exit 3
  'server-error': 'WEFT_REPLAY_FAILED', // exit 1
};

/** `weft outbox replay` could not deliver everything; what is left stays on disk. */
export class OutboxReplayStoppedError extends WeftError {
  readonly reason: ReplayStop['reason'];
  /** HTTP status, when the server answered. */
  readonly statusCode: number | undefined;
  /** Records still in the outbox. */
  readonly remaining: number;

  constructor(stop: ReplayStop, url: string, remaining: number, dir: string) {
    const kept = `${remaining} record(s) kept in the outbox under ${dir}`;
    const again = 'then run `weft outbox replay` again';
    const message = {
      unreachable: `Server unreachable at ${url} (${causeOf(stop.error)}); ${kept}. Start it with \`weft serve\` or point --url / WEFT_URL at a running server, ${again}.`,
      unauthorized: `The server at ${url} refused the credentials (HTTP ${stop.statusCode}); ${kept}. Pass its token with --token or WEFT_API_KEY, ${again}.`,
      'server-error': `The server at ${url} did not take the records (${stop.error.message}); ${kept}. Check the server and --url, ${again}.`,
    }[stop.reason];
    super({ code: codeOf[stop.reason], message, cause: stop.error });
    this.reason = stop.reason;
    this.statusCode = stop.statusCode;
    this.remaining = remaining;
  }
}

function causeOf(error: WeftError): string {
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string' && cause.message !== '') return cause.message;
  return 'no answer';
}
