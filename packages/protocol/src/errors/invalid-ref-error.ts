import { WeftError } from './weft-error.js';

/** A string that should be a `weft:///` ref URI is not one. */
export class InvalidRefError extends WeftError {
  readonly input: string;

  constructor(input: string, reason: string) {
    super({
      code: 'WEFT_INVALID_REF',
      message: `Invalid ref ${JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input)}: ${reason}. Expected weft:///<project>/object/<name>:<digest>, …/op/<name>:<digest>, …/table/<digest> or …/call/<id>, optionally followed by /<path segments>.`,
    });
    this.input = input;
  }
}
