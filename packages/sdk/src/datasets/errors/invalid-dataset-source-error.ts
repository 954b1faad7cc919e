import { WeftError } from '@weft/protocol';

/** The rows' source cannot be used: unknown format, or the file cannot be read. */
export class InvalidDatasetSourceError extends WeftError {
  constructor(message: string, cause?: unknown) {
    super({ code: 'WEFT_INVALID_DATASET_SOURCE', message, cause });
  }
}
