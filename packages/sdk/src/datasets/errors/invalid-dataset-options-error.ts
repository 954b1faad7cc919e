import { WeftError } from '@weft/protocol';

/** `new Dataset(…)` or `dataset.publish(…)` got a bad option; the message names it. */
export class InvalidDatasetOptionsError extends WeftError {
  readonly path: string;

  constructor(path: string, reason: string) {
    super({ code: 'WEFT_INVALID_OPTIONS', message: `Invalid dataset option ${path}: ${reason}` });
    this.path = path;
  }
}
