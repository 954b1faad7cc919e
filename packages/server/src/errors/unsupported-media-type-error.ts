import { hasCode, WeftError } from '@weft/protocol';

/** A body in a media type or content encoding the route does not read (415). */
export class UnsupportedMediaTypeError extends WeftError {
  constructor(message: string) {
    super({ code: 'WEFT_UNSUPPORTED_MEDIA_TYPE', message });
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is UnsupportedMediaTypeError {
    return hasCode(value, 'WEFT_UNSUPPORTED_MEDIA_TYPE');
  }
}
