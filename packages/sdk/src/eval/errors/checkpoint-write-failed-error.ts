import { WeftError } from '@weft/protocol';

/**
 * One row result could not be made durable in the checkpoint (disk full, I/O
 * error, failed fsync, a value JSON cannot encode, or the checkpoint was
 * closed). The run goes on; the row is not in the checkpoint, so a resume
 * runs it again.
 */
export class CheckpointWriteFailedError extends WeftError {
  readonly path: string;
  /** The system error code (`ENOSPC`, `EIO`, …) when there is one. */
  readonly systemCode: string | undefined;

  constructor(path: string, what: string, cause: unknown) {
    const systemCode = (cause as { code?: unknown } | null)?.code;
    super({
      code: 'WEFT_CHECKPOINT_WRITE_FAILED',
      message:
        `Could not write ${what} to checkpoint ${path}: ${cause instanceof Error ? cause.message : String(cause)}. ` +
        'The run continues; this row is not checkpointed and a resume will run it again.',
      cause,
    });
    this.path = path;
    this.systemCode = typeof systemCode === 'string' ? systemCode : undefined;
  }
}
