import { WeftError } from '@weft/protocol';

/** The storage engine behind this server does not implement a capability (feedback, sessions, labels). */
export class NotSupportedError extends WeftError {
  constructor(capability: string) {
    super({
      code: 'WEFT_NOT_SUPPORTED',
      message: `This server's storage engine does not support ${capability} yet; use the SQLite storage for it.`,
    });
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is NotSupportedError {
    return WeftError.isInstance(value) && value.code === 'WEFT_NOT_SUPPORTED';
  }
}
