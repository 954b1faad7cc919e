import { WeftError } from '@weft/protocol';

/**
 * One or more scorers threw (or returned something that is not a score) for
 * a row. Recorded as that row's error; the scores that did succeed are kept.
 * `cause` is the first scorer's error; `failures` has each one.
 */
export class ScorerFailedError extends WeftError {
  readonly failures: readonly { scorer: string; error: unknown }[];

  constructor(failures: readonly { scorer: string; error: unknown }[]) {
    const first = failures[0];
    const detail = first?.error instanceof Error ? first.error.message : String(first?.error);
    super({
      code: 'WEFT_SCORER_FAILED',
      message:
        `Scorer${failures.length > 1 ? 's' : ''} ${failures.map((f) => f.scorer).join(', ')} failed on this row` +
        ` (${first?.scorer}: ${detail}). The other scores of the row are kept.`,
      cause: first?.error,
    });
    this.failures = failures;
  }
}
