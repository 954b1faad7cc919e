import type { z } from 'zod';
import { describeOptionValue } from '../errors/index.js';
import { InvalidTransportOptionsError } from './transport-errors.js';

/**
 * Validates an options object against its zod schema, throwing one
 * `WEFT_INVALID_OPTIONS` error that names every bad option and the value it got:
 * "`maxBatchBytes` must be a positive integer, got -1".
 */
export function parseOptions<T>(owner: string, schema: z.ZodType<T>, options: unknown): T {
  const result = schema.safeParse(options, { reportInput: true });
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.length ? issue.path.join('.') : 'options';
    const got = 'input' in issue ? `, got ${describeOptionValue(issue.input)}` : '';
    return `\`${name}\`: ${issue.message}${got}`;
  });
  throw new InvalidTransportOptionsError(`Invalid ${owner} options: ${problems.join('; ')}`);
}
