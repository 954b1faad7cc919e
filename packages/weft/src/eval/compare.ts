import type { EvaluationRowResult } from '@weft/protocol';
import { z } from 'zod';
import { InvalidEvaluationOptionsError } from './errors/index.js';
import { mean, sampleStddev } from './stats.js';
import { tCritical95 } from './t-critical.js';

/** One score's paired comparison over the rows both runs scored. */
export interface ScoreComparison {
  /** Scorer name, or `scorer.key` for object scores. */
  score: string;
  /** Rows (× trials) both runs have a value for. */
  pairs: number;
  meanA: number;
  meanB: number;
  /** Mean of (B − A) over the pairs. */
  meanDifference: number;
  /** 95% confidence interval of the mean difference (paired t); `null` with fewer than two pairs. */
  ci95: { low: number; high: number } | null;
  /** Pairs where B is better / worse / equal ("better" is higher unless the score is in `lowerIsBetter`). */
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
 * Compares two runs' row results, paired over the (row, trial) both have.
 * For each score (booleans count as 1/0, object scores per key): the mean of
 * B − A with a 95% paired-t confidence interval (t critical values from
 * {@link tCritical95}), and how many pairs improved, regressed or did not
 * change; plus the list of shared rows whose scores changed.
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

  const diffs = new Map<string, { a: number[]; b: number[] }>();
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
      const va = sa[name];
      const vb = sb[name];
      if (va !== vb) differs = true;
      if (va === undefined || vb === undefined) continue;
      let d = diffs.get(name);
      if (d === undefined) {
        d = { a: [], b: [] };
        diffs.set(name, d);
      }
      d.a.push(Number(va));
      d.b.push(Number(vb));
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
