import { WeftError } from '@weft/protocol';

/** A trace outline cannot fit in the token budget asked for, even reduced to the failing call's path (exit 2). */
export class OutlineBudgetError extends WeftError {
  readonly maxTokens: number;
  /** About what the smallest outline of this trace needs. */
  readonly neededTokens: number;

  constructor(maxTokens: number, neededTokens: number) {
    super({
      code: 'WEFT_OUTLINE_BUDGET',
      message: `The outline of this trace needs about ${neededTokens.toLocaleString('en-US')} tokens (the path to its failing call and its slowest path), more than the budget of ${maxTokens.toLocaleString('en-US')}; raise max_tokens to at least ${neededTokens.toLocaleString('en-US')}.`,
    });
    this.maxTokens = maxTokens;
    this.neededTokens = neededTokens;
  }
}
