import { WeftError } from '@weft/protocol';

/** Another live process (or another `Outbox` in this process) holds the outbox folder. */
export class OutboxLockedError extends WeftError {
  /** The lock file that is held. */
  readonly lockPath: string;
  /** Process id written in the lock file, when it could be read. */
  readonly ownerPid: number | undefined;

  constructor(lockPath: string, ownerPid: number | undefined, detail: string) {
    super({
      code: 'WEFT_OUTBOX_LOCKED',
      message:
        `Outbox lock ${lockPath} is held (${detail}). One process owns an outbox folder at a time: ` +
        'close the other Outbox, give this process its own `dir`, or delete the lock file if you are sure its owner is gone.',
    });
    this.lockPath = lockPath;
    this.ownerPid = ownerPid;
  }
}
