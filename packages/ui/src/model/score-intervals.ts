import type { Call, EvaluationRowResult } from '../api/index.js';
// By source path, like the protocol's routes: the same paired comparison the
// CLI's `weft evals compare` prints (trials averaged per row, then paired t).
import { compareScores, type ScoreComparison } from '../../../sdk/src/eval/paired-comparison.js';
import { rowResult } from './eval-compare.js';

export type { ScoreComparison };

/** Each row-call's result keyed by its row (digest, else index); trials share a key and are averaged. */
function keyedResults(calls: readonly Call[]): [string, EvaluationRowResult][] {
  const out: [string, EvaluationRowResult][] = [];
  for (const call of calls) {
    const result = rowResult(call);
    if (result !== undefined) out.push([result.rowDigest ?? `#${result.rowIndex}`, result]);
  }
  return out;
}

/** Per scorer: B − A over the rows both runs scored, with its paired 95% interval. */
export function scoreIntervals(
  aCalls: readonly Call[],
  bCalls: readonly Call[],
  lowerIsBetter: ReadonlySet<string>,
): ScoreComparison[] {
  return compareScores(keyedResults(aCalls), keyedResults(bCalls), lowerIsBetter);
}

/** Whether B is better, worse, or not clearly different: the interval's side of zero, flipped for lower-is-better. */
export function verdict(c: ScoreComparison, lowerIsBetter: boolean): 'better' | 'worse' | 'unclear' {
  if (c.ci95 === null || (c.ci95.low <= 0 && c.ci95.high >= 0)) return 'unclear';
  const up = c.ci95.low > 0;
  return up !== lowerIsBetter ? 'better' : 'worse';
}
