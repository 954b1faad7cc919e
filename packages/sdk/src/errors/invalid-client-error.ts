import { WeftError } from '@weft/protocol';

/** A client wrapper (`wrapOpenAI`, `wrapAnthropic`, `wrapMcpClient`, …) was given something that is not the client it wraps. */
export class InvalidClientError extends WeftError {
  /** What was expected, e.g. `an OpenAI client`. */
  readonly expected: string;

  /**
   * @param example the constructor call a user would pass, e.g. `new Client(…)`
   *   (default: the OpenAI or Anthropic client's).
   */
  constructor(wrapper: string, expected: string, got: string, example?: string) {
    const instance = example ?? `new ${expected.includes('Anthropic') ? 'Anthropic' : 'OpenAI'}()`;
    super({
      code: 'WEFT_INVALID_CLIENT',
      message: `${wrapper} expects ${expected}, got ${got}. Pass the client instance itself, e.g. ${wrapper}(${instance}).`,
    });
    this.expected = expected;
  }
}
