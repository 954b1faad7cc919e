import { WeftError } from '@weft/protocol';

/** `weft.WeftFile.fromPath` / `fromBytes` got a bad argument; the message names it. */
export class InvalidFileError extends WeftError {
  readonly option: string;

  constructor(option: string, reason: string) {
    super({ code: 'WEFT_INVALID_OPTIONS', message: `Invalid file ${option}: ${reason}` });
    this.option = option;
  }
}
