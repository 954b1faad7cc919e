import { WeftError } from '@weft/protocol';

/**
 * A request body holds more values than the server's `maxBodyNodes` (every
 * value and map key, containers once each, the values inside a batch's
 * value items included). Answered 413 like a body too large in bytes, so
 * the SDK splits the batch; refused before the body is decoded.
 */
export class TooManyValuesError extends WeftError {
  readonly maxNodes: number;

  constructor(maxNodes: number) {
    super({
      code: 'WEFT_TOO_MANY_VALUES',
      message: `Request body holds more than ${maxNodes} values (map keys and the values inside value items count); send fewer items per request, smaller values, or raise maxBodyNodes.`,
    });
    this.maxNodes = maxNodes;
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is TooManyValuesError {
    return WeftError.isInstance(value) && value.code === 'WEFT_TOO_MANY_VALUES';
  }
}
