import { WeftError } from '@weft/protocol';

/**
 * An outbox folder is held by a live process (usually the application whose
 * SDK wrote it), so an admin command may not touch it: two writers would
 * corrupt the replay bookkeeping. That process's SDK replays the outbox
 * itself once the server answers.
 */
export class OutboxInUseError extends WeftError {
  /** The outbox folder. */
  readonly dir: string;
  /** Process id of the owner, when its lock file could be read. */
  readonly ownerPid: number | undefined;

  constructor(dir: string, ownerPid: number | undefined, cause: unknown) {
    const owner = ownerPid === undefined ? 'another process' : `live process ${ownerPid}`;
    super({
      code: 'WEFT_OUTBOX_IN_USE',
      message:
        `Outbox ${dir} is in use by ${owner}; its SDK replays the outbox by itself once the server answers. ` +
        'Stop that process (or wait for it to exit), then run `weft outbox replay` again. Nothing was replayed.',
      cause,
    });
    this.dir = dir;
    this.ownerPid = ownerPid;
  }
}
