import type { z } from 'zod';
import { optionIssues } from '../errors/index.js';
import { InvalidTransportOptionsError } from './transport-errors.js';

/**
 * Validates an options object against its zod schema, throwing one
 * `WEFT_INVALID_OPTIONS` error that names every bad option and the value it got:
 * "`maxBatchBytes` must be a positive integer, got -1".
 */
export function parseOptions<T>(owner: string, schema: z.ZodType<T>, options: unknown): T {
  const result = schema.safeParse(options);
  if (result.success) return result.data;
  const details = optionIssues(result.error, options).map((issue) => issue.detail);
  throw new InvalidTransportOptionsError(`Invalid ${owner} options: ${details.join('; ')}.`);
}
