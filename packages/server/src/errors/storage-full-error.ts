import { WeftError } from '@weft/protocol';

/**
 * The storage's disk is full (SQLite's `SQLITE_FULL`, a file write's
 * `ENOSPC`). Answered with 503 and `Retry-After`: nothing of the request was
 * stored, and the same request succeeds once space is freed. (503 rather
 * than 507, because OTLP/HTTP exporters retry 503 and drop 507.)
 */
export class StorageFullError extends WeftError {
  /** How long a client should wait before retrying. */
  readonly retryAfterMs: number;

  constructor({ retryAfterMs = 30_000, cause }: { retryAfterMs?: number; cause?: unknown } = {}) {
    super({
      code: 'WEFT_STORAGE_FULL',
      message: `The server's disk is full; nothing of this request was stored. Free space where the database lives; retry in ${Math.ceil(retryAfterMs / 1_000)} s.`,
      cause,
    });
    this.retryAfterMs = retryAfterMs;
  }

  /** The error as a {@link StorageFullError} when it says the disk is full, else `undefined`. */
  static of(error: unknown): StorageFullError | undefined {
    const code = (error as { code?: unknown } | null)?.code;
    return code === 'SQLITE_FULL' || code === 'ENOSPC' ? new StorageFullError({ cause: error }) : undefined;
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is StorageFullError {
    return WeftError.isInstance(value) && value.code === 'WEFT_STORAGE_FULL';
  }
}
