import type { EvaluationRowResult } from '@weft/protocol';
import { mean, sampleStddev } from './stats.js';
import { tCritical95 } from './t-critical.js';

// No zod and no Node modules here: the web UI imports this file by source
// path, so its compare view computes exactly what `weft evals compare` does.

/** One score's paired comparison over the rows both runs scored. */
export interface ScoreComparison {
  /** Scorer name, or `scorer.key` for object scores. */
  score: string;
  /** Rows both runs have a value for: each run's trials of a row are averaged first, then the rows are paired. */
  pairs: number;
  meanA: number;
  meanB: number;
  /** Mean of (B − A) over the pairs. */
  meanDifference: number;
  /** 95% confidence interval of the mean per-row difference (paired t over rows); `null` with fewer than two rows. */
  ci95: { low: number; high: number } | null;
  /** Rows where B is better / worse / equal on average ("better" is higher unless the score is in `lowerIsBetter`). */
  improved: number;
  regressed: number;
  unchanged: number;
}

/**
 * The paired comparison of each score between two runs' results, given as
 * `[row key, result]` with one entry per trial: trials of a row are averaged
 * first, then rows both runs scored are paired (see `compareRuns`).
 * Sorted by score name.
 */
export function compareScores(
  a: Iterable<[string, EvaluationRowResult]>,
  b: Iterable<[string, EvaluationRowResult]>,
  lowerIsBetter: ReadonlySet<string> = new Set(),
): ScoreComparison[] {
  const diffs = pairedRowMeans(rowMeans(a), rowMeans(b));
  return [...diffs.keys()].sort().map((name) => {
    const d = diffs.get(name) as { a: number[]; b: number[] };
    return scoreComparison(name, d.a, d.b, lowerIsBetter.has(name));
  });
}

/** Paired mean difference with its 95% t interval over matching lists of per-row values. */
function scoreComparison(score: string, a: number[], b: number[], lowerIsBetter: boolean): ScoreComparison {
  const differences = a.map((x, i) => (b[i] as number) - x);
  const meanDifference = mean(differences);
  let ci95: ScoreComparison['ci95'] = null;
  if (differences.length >= 2) {
    const half =
      (tCritical95(differences.length - 1) * sampleStddev(differences)) / Math.sqrt(differences.length);
    ci95 = { low: meanDifference - half, high: meanDifference + half };
  }
  const sign = lowerIsBetter ? -1 : 1;
  return {
    score,
    pairs: differences.length,
    meanA: mean(a),
    meanB: mean(b),
    meanDifference,
    ci95,
    improved: differences.filter((d) => d * sign > 0).length,
    regressed: differences.filter((d) => d * sign < 0).length,
    unchanged: differences.filter((d) => d === 0).length,
  };
}

/** Per row key, per score: the mean over that row's results (its trials). */
function rowMeans(results: Iterable<[string, EvaluationRowResult]>): Map<string, Map<string, number>> {
  const sums = new Map<string, Map<string, { sum: number; n: number }>>();
  for (const [row, result] of results) {
    const scores = sums.get(row) ?? new Map<string, { sum: number; n: number }>();
    sums.set(row, scores);
    for (const [name, value] of Object.entries(flatScores(result))) {
      const s = scores.get(name) ?? { sum: 0, n: 0 };
      s.sum += Number(value);
      s.n++;
      scores.set(name, s);
    }
  }
  const means = new Map<string, Map<string, number>>();
  for (const [row, scores] of sums) {
    means.set(row, new Map([...scores].map(([name, s]) => [name, s.sum / s.n])));
  }
  return means;
}

/** Per score: the row means of A and B over the rows both have, in matching order. */
function pairedRowMeans(
  a: ReadonlyMap<string, ReadonlyMap<string, number>>,
  b: ReadonlyMap<string, ReadonlyMap<string, number>>,
): Map<string, { a: number[]; b: number[] }> {
  const diffs = new Map<string, { a: number[]; b: number[] }>();
  for (const [row, scoresA] of a) {
    const scoresB = b.get(row);
    if (scoresB === undefined) continue;
    for (const [name, va] of scoresA) {
      const vb = scoresB.get(name);
      if (vb === undefined) continue;
      const d = diffs.get(name) ?? { a: [], b: [] };
      diffs.set(name, d);
      d.a.push(va);
      d.b.push(vb);
    }
  }
  return diffs;
}

/** Scores flattened to one level: `name` or `name.key`. */
export function flatScores(result: EvaluationRowResult): Record<string, number | boolean> {
  const out: Record<string, number | boolean> = {};
  for (const [name, value] of Object.entries(result.scores)) {
    if (typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) out[`${name}.${key}`] = v;
    } else {
      out[name] = value;
    }
  }
  return out;
}
