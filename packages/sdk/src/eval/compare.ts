import type { EvaluationRowResult } from '@weft/protocol';
import { z } from 'zod';
import { InvalidEvaluationOptionsError } from './errors/index.js';
import { compareScores, flatScores, type ScoreComparison } from './paired-comparison.js';

export type { ScoreComparison } from './paired-comparison.js';

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
  const scores = compareScores(withoutTrial(keyedA), withoutTrial(keyedB), lowerIsBetter);
  changed.sort((x, y) => x.rowIndexA - y.rowIndexA || x.trial - y.trial);
  return { pairedBy, shared, onlyInA: keyedA.size - shared, onlyInB: keyedB.size - shared, scores, changed };
}

/** Results keyed by row alone (the pairing key without its `:trial`), for averaging trials per row. */
function withoutTrial(results: ReadonlyMap<string, EvaluationRowResult>): [string, EvaluationRowResult][] {
  return [...results].map(([key, result]) => [key.slice(0, key.lastIndexOf(':')), result]);
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
