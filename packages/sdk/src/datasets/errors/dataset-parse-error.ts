import { WeftError } from '@weft/protocol';

/** One malformed line of a JSONL or CSV source. */
export interface DatasetParseProblem {
  /** 1-based physical line number where the bad record starts. */
  line: number;
  /** What is wrong with it. */
  reason: string;
}

/** At most this many problems are spelled out in the message; all are kept in `problems`. */
const MESSAGE_PROBLEMS = 5;

/**
 * A JSONL or CSV source has malformed lines. Every bad line is collected (one
 * bad line does not hide the next), and the message names the first few.
 */
export class DatasetParseError extends WeftError {
  /** The file path, or `<text>` for an in-memory string. */
  readonly source: string;
  /** Every malformed line, in file order. */
  readonly problems: readonly DatasetParseProblem[];

  constructor(source: string, format: 'jsonl' | 'csv', problems: readonly DatasetParseProblem[]) {
    const listed = problems
      .slice(0, MESSAGE_PROBLEMS)
      .map((p) => `line ${p.line}: ${p.reason}`)
      .join('; ');
    const more = problems.length > MESSAGE_PROBLEMS ? `; and ${problems.length - MESSAGE_PROBLEMS} more` : '';
    super({
      code: 'WEFT_DATASET_PARSE',
      message: `${source} is not valid ${format.toUpperCase()} (${problems.length} bad line(s)): ${listed}${more}. Fix those lines and load again.`,
    });
    this.source = source;
    this.problems = problems;
  }
}
