import { hasCode, WeftError } from '@weft/protocol';

/** One offending field of a request, as reported to the client. */
export interface RequestIssue {
  /** Dotted path of the field (`items.3.startedAt`); empty for the whole body. */
  path: string;
  /** For batch requests: the index of the offending item. */
  index?: number;
  message: string;
}

/**
 * A request body, query or path parameter failed validation. `path` names the
 * first offending field; `issues` lists every one found (bounded), so a client
 * can drop all bad items of a batch in one round trip.
 */
export class InvalidRequestError extends WeftError {
  readonly path: string;
  readonly index: number | undefined;
  readonly issues: readonly RequestIssue[];

  constructor(issues: readonly RequestIssue[], where = 'request') {
    const first = issues[0] ?? { path: '', message: 'invalid request' };
    super({
      code: 'WEFT_INVALID_REQUEST',
      message: `Invalid ${where}${first.path ? ` at ${first.path}` : ''}: ${first.message}${
        issues.length > 1 ? ` (and ${issues.length - 1} more issue${issues.length > 2 ? 's' : ''})` : ''
      }`,
    });
    this.path = first.path;
    this.index = first.index;
    this.issues = issues;
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is InvalidRequestError {
    return hasCode(value, 'WEFT_INVALID_REQUEST');
  }
}
