import { hasCode, WeftError } from '@weft/protocol';

/** The storage was used after `close()`. */
export class StorageClosedError extends WeftError {
  constructor() {
    super({
      code: 'WEFT_STORAGE_CLOSED',
      message: 'The storage is closed; start the server again to use it.',
    });
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is StorageClosedError {
    return hasCode(value, 'WEFT_STORAGE_CLOSED');
  }
}
