import type { EvaluationRowResult } from '@weft/protocol';
import { z } from 'zod';
import { InvalidEvaluationOptionsError } from './errors/index.js';
import { mean, sampleStddev } from './stats.js';
import { tCritical95 } from './t-critical.js';

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

/** A shared row whose scores (or error state) differ between the runs. */
export interface ChangedRow {
  rowIndexA: number;
  rowIndexB: number;
  rowDigest?: string | undefined;
  trial: number;
  a: Record<string, number | boolean>;
  b: Record<string, number | boolean>;
  errorA: boolean;
  errorB: boolean;
}

/** The paired comparison of two runs. */
export interface RunComparison {
  /** How rows were matched: by content digest (robust to reordering) or by position. */
  pairedBy: 'rowDigest' | 'rowIndex';
  /** (row, trial) pairs present in both runs. */
  shared: number;
  onlyInA: number;
  onlyInB: number;
  scores: ScoreComparison[];
  changed: ChangedRow[];
}

const optionsSchema = z.strictObject({
  pairBy: z.enum(['auto', 'rowDigest', 'rowIndex']).default('auto'),
  lowerIsBetter: z.array(z.string()).default([]),
});

/** Options of {@link compareRuns}. */
export interface CompareOptions {
  /**
   * Match rows by `rowDigest` (same content, wherever it sits) or `rowIndex`.
   * `auto` uses digests when every result of both runs has one.
   * @default 'auto'
   */
  pairBy?: 'auto' | 'rowDigest' | 'rowIndex';
  /** Scores (names or `scorer.key`) where a smaller value is better, e.g. a cost. @default [] */
  lowerIsBetter?: string[];
}

/**
 * Compares two runs' row results. For each score (booleans count as 1/0,
 * object scores per key), each run's trials of a row are averaged first and
 * the rows both runs scored are paired: the mean of B − A over rows with a
 * 95% paired-t confidence interval (t critical values from
 * {@link tCritical95}), and how many rows improved, regressed or did not
 * change. Averaging first matters: trials of one row are not independent
 * samples, and pairing trial k of A with trial k of B (which share nothing
 * but a number) made the interval too narrow by up to √trials. Also the list
 * of shared (row, trial) results whose scores changed.
 */
export function compareRuns(
  a: readonly EvaluationRowResult[],
  b: readonly EvaluationRowResult[],
  options: CompareOptions = {},
): RunComparison {
  const o = InvalidEvaluationOptionsError.parse('compareRuns', optionsSchema, options);
  const byDigest = a.concat(b).every((r) => r.rowDigest !== undefined);
  const pairedBy = o.pairBy === 'auto' ? (byDigest ? 'rowDigest' : 'rowIndex') : o.pairBy;
  const keyedA = keyed(a, pairedBy);
  const keyedB = keyed(b, pairedBy);
  const lowerIsBetter = new Set(o.lowerIsBetter);

  const changed: ChangedRow[] = [];
  let shared = 0;
  for (const [key, ra] of keyedA) {
    const rb = keyedB.get(key);
    if (rb === undefined) continue;
    shared++;
    const sa = flatScores(ra);
    const sb = flatScores(rb);
    let differs = (ra.error === undefined) !== (rb.error === undefined);
    for (const name of new Set([...Object.keys(sa), ...Object.keys(sb)])) {
      if (sa[name] !== sb[name]) differs = true;
    }
    if (differs) {
      changed.push({
        rowIndexA: ra.rowIndex,
        rowIndexB: rb.rowIndex,
        rowDigest: ra.rowDigest,
        trial: ra.trial,
        a: sa,
        b: sb,
        errorA: ra.error !== undefined,
        errorB: rb.error !== undefined,
      });
    }
  }
  const diffs = pairedRowMeans(rowMeans(keyedA), rowMeans(keyedB));
  const scores = [...diffs.keys()].sort().map((name) => {
    const d = diffs.get(name) as { a: number[]; b: number[] };
    return scoreComparison(name, d.a, d.b, lowerIsBetter.has(name));
  });
  changed.sort((x, y) => x.rowIndexA - y.rowIndexA || x.trial - y.trial);
  return { pairedBy, shared, onlyInA: keyedA.size - shared, onlyInB: keyedB.size - shared, scores, changed };
}

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

/** Per row (pairing key without the trial), per score: the mean over that row's trials. */
function rowMeans(results: ReadonlyMap<string, EvaluationRowResult>): Map<string, Map<string, number>> {
  const sums = new Map<string, Map<string, { sum: number; n: number }>>();
  for (const [key, result] of results) {
    const row = key.slice(0, key.lastIndexOf(':'));
    let scores = sums.get(row);
    if (scores === undefined) sums.set(row, (scores = new Map()));
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
      let d = diffs.get(name);
      if (d === undefined) diffs.set(name, (d = { a: [], b: [] }));
      d.a.push(va);
      d.b.push(vb);
    }
  }
  return diffs;
}

/** Scores flattened to one level: `name` or `name.key`. */
function flatScores(result: EvaluationRowResult): Record<string, number | boolean> {
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

/**
 * Results by pairing key. By digest, identical rows of one dataset share a
 * digest, so the k-th row (in index order) with a digest pairs with the k-th
 * row with that digest in the other run.
 */
function keyed(results: readonly EvaluationRowResult[], by: 'rowDigest' | 'rowIndex') {
  const map = new Map<string, EvaluationRowResult>();
  const occurrence = new Map<number, number>();
  if (by === 'rowDigest') {
    const indexesByDigest = new Map<string, Set<number>>();
    for (const r of results) {
      const digest = r.rowDigest ?? `#${r.rowIndex}`;
      let set = indexesByDigest.get(digest);
      if (set === undefined) {
        set = new Set();
        indexesByDigest.set(digest, set);
      }
      set.add(r.rowIndex);
    }
    for (const set of indexesByDigest.values()) {
      const sorted = [...set].sort((x, y) => x - y);
      for (let k = 0; k < sorted.length; k++) occurrence.set(sorted[k] as number, k);
    }
  }
  for (const r of results) {
    const id =
      by === 'rowDigest'
        ? `${r.rowDigest ?? `#${r.rowIndex}`}#${occurrence.get(r.rowIndex)}`
        : String(r.rowIndex);
    map.set(`${id}:${r.trial}`, r);
  }
  return map;
}
