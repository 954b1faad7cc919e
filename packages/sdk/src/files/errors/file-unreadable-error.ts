import { WeftError } from '@weft/protocol';

/** A `weft.WeftFile` given by path could not be read. */
export class FileUnreadableError extends WeftError {
  readonly path: string;

  constructor(path: string, cause: unknown) {
    const why = (cause as { code?: unknown })?.code ?? (cause as Error)?.message ?? String(cause);
    super({
      code: 'WEFT_FILE_UNREADABLE',
      message: `could not read the file ${path} (${String(why)})`,
      cause,
    });
    this.path = path;
  }
}
