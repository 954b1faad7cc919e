import { WeftError } from '@weft/protocol';

/** A record had to be kept on disk but no outbox could be opened (the open failure was reported as a warning). */
export class OutboxUnavailableError extends WeftError {
  constructor(dir: string) {
    super({
      code: 'WEFT_OUTBOX_UNAVAILABLE',
      message: `No outbox could be opened at ${dir} (see the earlier "outbox" warning); check the folder's permissions and free space.`,
    });
  }
}
