import { WeftError } from '@weft/protocol';
import type { z } from 'zod';
import { firstOptionIssue, type OptionIssue } from '../../errors/index.js';

/** Options of an evaluation, scorer or runner failed validation; the message names the option and what it got. */
export class InvalidEvaluationOptionsError extends WeftError {
  /** Dotted path of the bad option (`concurrency`, `scorers.1`, …); `''` for the options value itself. */
  readonly path: string;

  /** `where` is what took the options (`Evaluation`, `evaluate`, `rateLimit`, …). */
  constructor(where: string, { option, detail }: OptionIssue) {
    super({ code: 'WEFT_INVALID_OPTIONS', message: `Invalid ${where} options: ${detail}.` });
    this.path = option;
  }

  /** Parses `value` with `schema`, throwing this error for the first issue. */
  static parse<T extends z.ZodType>(where: string, schema: T, value: unknown): z.output<T> {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    throw new InvalidEvaluationOptionsError(where, firstOptionIssue(parsed.error, value));
  }
}
