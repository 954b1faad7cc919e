import { WeftError } from '@weft/protocol';

/** The command line asks for something impossible or misses a required setting (exit 2). */
export class UsageError extends WeftError {
  constructor(message: string) {
    super({ code: 'WEFT_USAGE', message });
  }
}
