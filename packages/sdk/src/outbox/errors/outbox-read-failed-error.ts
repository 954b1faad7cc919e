import { WeftError } from '@weft/protocol';

/** A segment file could not be read during `open()` or `replay()`. */
export class OutboxReadFailedError extends WeftError {
  /** The segment (or folder) that failed. */
  readonly path: string;

  constructor(path: string, cause: unknown) {
    super({
      code: 'WEFT_OUTBOX_READ_FAILED',
      message: `Could not read outbox file ${path}: ${cause instanceof Error ? cause.message : String(cause)}. Check permissions and the disk; its records are kept.`,
      cause,
    });
    this.path = path;
  }
}
