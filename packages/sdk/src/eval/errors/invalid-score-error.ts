import { WeftError } from '@weft/protocol';

/** A scorer returned something other than a number, a boolean, or an object of them. */
export class InvalidScoreError extends WeftError {
  readonly scorer: string;

  constructor(scorer: string, value: unknown) {
    let shown: string;
    try {
      shown = JSON.stringify(value) ?? String(value);
    } catch {
      shown = String(value);
    }
    super({
      code: 'WEFT_INVALID_SCORE',
      message: `Scorer ${scorer} returned ${shown.slice(0, 200)}; a score is a finite number, a boolean, or an object of them.`,
    });
    this.scorer = scorer;
  }
}
