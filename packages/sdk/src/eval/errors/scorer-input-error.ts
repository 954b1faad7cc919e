import { WeftError } from '@weft/protocol';

/**
 * A built-in scorer cannot score a row because the row lacks what it needs
 * (a missing column, an expected value of the wrong type). Thrown inside the
 * row, so it is recorded on that row and the run goes on.
 */
export class ScorerInputError extends WeftError {
  readonly scorer: string;
  readonly column: string;

  constructor(scorer: string, column: string, reason: string) {
    super({
      code: 'WEFT_SCORER_INPUT',
      message: `Scorer ${scorer}: ${reason}. Pass { column: '…' } to read another column.`,
    });
    this.scorer = scorer;
    this.column = column;
  }
}
