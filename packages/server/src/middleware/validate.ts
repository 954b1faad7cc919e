import type { z } from 'zod';
import { InvalidRequestError, type RequestIssue } from '../errors/invalid-request-error.js';

/** At most this many issues are reported per request; the first names the field in `path`. */
const MAX_REPORTED_ISSUES = 100;

/** Request parts a validator checks; names the part in error messages. */
export type RequestPart = 'body' | 'query' | 'params';

/**
 * Makes a validator for one request part: it returns the parsed value or
 * throws `WEFT_INVALID_REQUEST` whose `path` names the offending field
 * (`items.3.startedAt`) and, for list items, whose `index` is the item's.
 */
export function validate<S extends z.ZodType>(schema: S, part: RequestPart): (value: unknown) => z.output<S> {
  return (value) => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issues = result.error.issues.slice(0, MAX_REPORTED_ISSUES).map(toRequestIssue);
    throw new InvalidRequestError(issues, part);
  };
}

function toRequestIssue(issue: z.core.$ZodIssue): RequestIssue {
  const path = issue.path.map((segment) => String(segment)).join('.');
  const [first, second] = issue.path;
  // Items of a list body (call batch items, table rows) are addressed by index.
  const index = typeof first === 'string' && typeof second === 'number' ? second : undefined;
  return index === undefined ? { path, message: issue.message } : { path, index, message: issue.message };
}
