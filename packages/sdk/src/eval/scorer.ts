import type { ScoreValue } from '@weft/protocol';
import type { Row } from '../datasets/index.js';

/** What a scorer receives: the model's output for a row, and the row's columns by name. */
export interface ScorerArgs<Output = unknown> {
  output: Output;
  row: Row;
}

/**
 * Scores one output: a number, a boolean (pass/fail) or an object of them
 * (one score per key). May be async, may be a traced op; its `name` names the
 * score unless the scorers are given as a record.
 */
export type Scorer<Output = unknown> = (args: ScorerArgs<Output>) => ScoreValue | Promise<ScoreValue>;
