import { WeftError } from '@weft/protocol';

/** The checkpoint file could not be opened, read or repaired at the start of a run. */
export class CheckpointOpenFailedError extends WeftError {
  readonly path: string;

  constructor(path: string, cause: unknown) {
    super({
      code: 'WEFT_CHECKPOINT_OPEN_FAILED',
      message: `Could not open checkpoint ${path}: ${cause instanceof Error ? cause.message : String(cause)}. Check the path, its folder and permissions, or run without \`checkpoint\`.`,
      cause,
    });
    this.path = path;
  }
}
