import { WeftError } from '@weft/protocol';

/** The outbox folder or its lock file could not be created (permissions, read-only disk, …). */
export class OutboxOpenFailedError extends WeftError {
  /** The folder or file that failed. */
  readonly path: string;
  /** The system error code (`EACCES`, `EROFS`, …) when there is one. */
  readonly systemCode: string | undefined;

  constructor(path: string, cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code;
    super({
      code: 'WEFT_OUTBOX_OPEN_FAILED',
      message: `Could not open the outbox at ${path}: ${cause instanceof Error ? cause.message : String(cause)}. Check that the folder is writable, or configure another outbox folder.`,
      cause,
    });
    this.path = path;
    this.systemCode = typeof code === 'string' ? code : undefined;
  }
}
