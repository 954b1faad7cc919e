import type { z } from 'zod';
import { InvalidRequestError, type RequestIssue } from '../errors/index.js';

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
    const issues = result.error.issues.flatMap(toRequestIssues).slice(0, MAX_REPORTED_ISSUES);
    throw new InvalidRequestError(issues, part);
  };
}

/** One issue per offending field; an unknown key of a strict schema is named in the path (`sort.feild`). */
function toRequestIssues(issue: z.core.$ZodIssue): RequestIssue[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) =>
      toRequestIssue(
        [...issue.path, key],
        `unknown key ${JSON.stringify(key)}; it is not a field of this request`,
      ),
    );
  }
  return [toRequestIssue(issue.path, issue.message)];
}

function toRequestIssue(keys: readonly PropertyKey[], message: string): RequestIssue {
  const path = keys.map((segment) => String(segment)).join('.');
  const [first, second] = keys;
  // Items of a list body (call batch items, table rows) are addressed by index.
  const index = typeof first === 'string' && typeof second === 'number' ? second : undefined;
  return index === undefined ? { path, message } : { path, index, message };
}
