import { WeftError } from '@weft/protocol';

/** The storage was used after `close()`. */
export class StorageClosedError extends WeftError {
  constructor() {
    super({ code: 'WEFT_STORAGE_CLOSED', message: 'The storage is closed; start the server again to use it.' });
  }
}
