import { WeftError } from '@weft/protocol';

/** `weft.init` (or another options object) was given a value it cannot use. */
export class InvalidOptionsError extends WeftError {
  /** Dotted path of the offending option, e.g. `concurrency`. */
  readonly option: string;

  constructor(option: string, message: string) {
    super({ code: 'WEFT_INVALID_OPTIONS', message });
    this.option = option;
  }
}
