import type { ServerSettings } from '../server-flags.js';

/** Options of `weft eval compare`. */
export interface EvalCompareOptions extends ServerSettings {
  /** Call id of the baseline run (an `Evaluation.evaluate` call). */
  runA: string;
  /** Call id of the run compared against it. */
  runB: string;
  /** Scores where smaller is better (a cost, a latency). */
  lowerIsBetter: string[];
  /** Print the comparison as JSON instead of tables. */
  json: boolean;
}
