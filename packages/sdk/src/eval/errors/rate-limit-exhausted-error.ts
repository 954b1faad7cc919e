import { WeftError } from '@weft/protocol';

/**
 * The model kept answering "rate limited" for one row until its retry budget
 * was spent. Recorded as that row's error; `cause` is the last rate-limit
 * error the model threw.
 */
export class RateLimitExhaustedError extends WeftError {
  readonly attempts: number;

  constructor(attempts: number, cause: unknown) {
    super({
      code: 'WEFT_RATE_LIMITED',
      message:
        `The model was rate limited on all ${attempts} attempts for this row. ` +
        'Lower `concurrency`, or raise `rateLimit.maxAttempts` to wait longer.',
      cause,
    });
    this.attempts = attempts;
  }
}
