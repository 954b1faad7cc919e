import { WeftError } from '@weft/protocol';

/** `wrapOpenAI` / `wrapAnthropic` was given something that is not the client it wraps. */
export class InvalidClientError extends WeftError {
  /** What was expected, e.g. `an OpenAI client`. */
  readonly expected: string;

  constructor(wrapper: string, expected: string, got: string) {
    super({
      code: 'WEFT_INVALID_CLIENT',
      message: `${wrapper} expects ${expected}, got ${got}. Pass the client instance itself, e.g. ${wrapper}(new ${expected.includes('Anthropic') ? 'Anthropic' : 'OpenAI'}()).`,
    });
    this.expected = expected;
  }
}
