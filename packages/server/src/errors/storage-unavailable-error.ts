import { hasCode, WeftError } from '@weft/protocol';

/**
 * The storage engine cannot be reached or did not answer in time (ClickHouse
 * down, restarting or overloaded). Answered with 503 and `Retry-After`, so
 * clients retry and, past their budget, keep records in their outbox.
 */
export class StorageUnavailableError extends WeftError {
  /** How long a client should wait before retrying. */
  readonly retryAfterMs: number;

  /**
   * @param where - the storage the server was starting on (e.g. `ClickHouse
   *   at http://127.0.0.1:8123`): a server that cannot open its storage does not
   *   start, so the message says what to check instead of when to retry.
   */
  constructor({
    retryAfterMs = 1_000,
    cause,
    where,
  }: { retryAfterMs?: number; cause?: unknown; where?: string } = {}) {
    super({
      code: 'WEFT_STORAGE_UNAVAILABLE',
      message:
        where === undefined
          ? `The storage is unavailable (${describe(cause)}); retry in ${Math.ceil(retryAfterMs / 1_000)} s.`
          : `Could not reach ${where} (${describe(cause)}); is it running, and is --storage right?`,
      cause,
    });
    this.retryAfterMs = retryAfterMs;
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is StorageUnavailableError {
    return hasCode(value, 'WEFT_STORAGE_UNAVAILABLE');
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error) return (cause as NodeJS.ErrnoException).code ?? cause.message.slice(0, 200);
  return 'no answer';
}
