import { WeftError } from '@weft/protocol';

/** A file's bytes could not be stored on the server: refused, unreachable past the retries, or changed while being saved. */
export class FileUploadFailedError extends WeftError {
  /** The digest the bytes had when hashed. */
  readonly digest: string;

  constructor(digest: string, reason: string, cause?: unknown) {
    super({ code: 'WEFT_FILE_UPLOAD_FAILED', message: `file ${digest} was not stored: ${reason}`, cause });
    this.digest = digest;
  }
}
