import { WeftError } from '@weft/protocol';

/**
 * Records could not be made durable in the outbox (disk full, I/O error,
 * failed fsync). What was written before is untouched: a failed write is
 * truncated away before the next one starts.
 */
export class OutboxWriteFailedError extends WeftError {
  /** Records of the rejected `append()` that are durably in the outbox (always a prefix of the batch). */
  readonly recordsWritten: number;
  /** Records of the rejected `append()` that are NOT in the outbox; the caller still owns them. */
  readonly recordsNotWritten: number;
  /** The system error code (`ENOSPC`, `EIO`, …) when there is one. */
  readonly systemCode: string | undefined;

  constructor(options: { dir: string; recordsWritten: number; recordsNotWritten: number; cause: unknown }) {
    const systemCode = systemErrorCode(options.cause);
    super({
      code: 'WEFT_OUTBOX_WRITE_FAILED',
      message:
        `Outbox write in ${options.dir} failed (${systemCode ?? describe(options.cause)}): ` +
        `${options.recordsNotWritten} record(s) not written` +
        (options.recordsWritten > 0
          ? `, ${options.recordsWritten} earlier record(s) of the batch kept`
          : '') +
        '. Earlier records are intact; free disk space or check the folder, later appends retry on their own.',
      cause: options.cause,
    });
    this.recordsWritten = options.recordsWritten;
    this.recordsNotWritten = options.recordsNotWritten;
    this.systemCode = systemCode;
  }
}

function systemErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
