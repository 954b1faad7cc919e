import { WeftError } from '@weft/protocol';
import type { z } from 'zod';

/** Options of an evaluation, scorer or runner failed validation; the message names the option. */
export class InvalidEvaluationOptionsError extends WeftError {
  /** Dotted path of the bad option (`concurrency`, `scorers.1`, …). */
  readonly path: string;

  constructor(where: string, path: string, reason: string) {
    super({
      code: 'WEFT_INVALID_OPTIONS',
      message: `Invalid ${where} option ${path || '(options)'}: ${reason}`,
    });
    this.path = path;
  }

  /** Parses `value` with `schema`, throwing this error for the first issue. */
  static parse<T extends z.ZodType>(where: string, schema: T, value: unknown): z.output<T> {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    throw new InvalidEvaluationOptionsError(where, issue?.path.join('.') ?? '', issue?.message ?? 'invalid');
  }
}
