import { WeftError } from '@weft/protocol';

/** A module-level function that needs a client (`publish`, `get`, …) was called before `weft.init`. */
export class NotInitializedError extends WeftError {
  constructor(what: string) {
    super({
      code: 'WEFT_NOT_INITIALIZED',
      message: `Cannot ${what}: no Weft client. Call weft.init({ project }) first (or set WEFT_PROJECT).`,
    });
  }
}
