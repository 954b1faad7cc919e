import { WeftError } from '@weft/protocol';

/**
 * The server is at its limit of work in flight (requests, or bytes of their
 * bodies). Answered with 503 and `Retry-After` before the body is parsed, so a
 * client backs off instead of queueing behind the work already admitted.
 */
export class OverloadedError extends WeftError {
  /** How long a client should wait before retrying. */
  readonly retryAfterMs: number;

  constructor(limit: string, { retryAfterMs = 1_000 }: { retryAfterMs?: number } = {}) {
    super({
      code: 'WEFT_OVERLOADED',
      message: `The server is busy (${limit}); retry in ${Math.ceil(retryAfterMs / 1_000)} s.`,
    });
    this.retryAfterMs = retryAfterMs;
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is OverloadedError {
    return WeftError.isInstance(value) && value.code === 'WEFT_OVERLOADED';
  }
}
