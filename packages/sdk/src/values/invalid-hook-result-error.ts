import { WeftError } from '@weft/protocol';

/** An `onObject`/`onBlob` hook returned (or resolved to) something other than a ref string or undefined. */
export class InvalidHookResultError extends WeftError {
  constructor(hook: 'onObject' | 'onBlob', got: string) {
    super({
      code: 'WEFT_INVALID_HOOK_RESULT',
      message: `The ${hook} hook must return a ref URI string, a Promise of one, or undefined; got ${got}.`,
    });
  }
}
