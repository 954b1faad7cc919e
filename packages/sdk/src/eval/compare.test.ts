import type { EvaluationRowResult } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { compareRuns } from './compare.js';
import { formatComparison } from './format-comparison.js';
import { summarize } from './summary.js';
import { tCritical95 } from './t-critical.js';

const row = (
  rowIndex: number,
  scores: EvaluationRowResult['scores'],
  extra: Partial<EvaluationRowResult> = {},
): EvaluationRowResult => ({ rowIndex, trial: 0, output: null, scores, latencyMs: 1, ...extra });

describe('compareRuns', () => {
  it('gives the hand-computed paired mean difference and 95% CI', () => {
    // B − A per row: 1, 2, 3, 4 → mean 2.5; sd = √(5/3) = 1.290994; se = sd/2 = 0.645497;
    // t(0.975, df 3) = 3.182 → half-width 2.053971 → CI [0.446029, 4.553971].
    const a = [0, 1, 2, 3].map((i) => row(i, { s: 10 }));
    const b = [0, 1, 2, 3].map((i) => row(i, { s: 11 + i }));
    const cmp = compareRuns(a, b);
    const s = cmp.scores[0];
    expect(cmp.scores).toHaveLength(1);
    expect(s).toMatchObject({ score: 's', pairs: 4, meanA: 10, meanB: 12.5, meanDifference: 2.5 });
    expect(s?.ci95?.low).toBeCloseTo(0.446029, 5);
    expect(s?.ci95?.high).toBeCloseTo(4.553971, 5);
    expect(s).toMatchObject({ improved: 4, regressed: 0, unchanged: 0 });
    expect(cmp.changed.map((c) => c.rowIndexA)).toEqual([0, 1, 2, 3]);
  });

  it("averages each run's trials of a row before pairing rows (trial k of A is not trial k of B)", () => {
    // Two rows, three trials each. Row means: A = [1, 2], B = [2, 4] → differences 1, 2 (n = 2 rows, not 6 trials).
    const trials = (rowIndex: number, values: number[]) =>
      values.map((v, trial) => row(rowIndex, { s: v }, { trial }));
    const a = [...trials(0, [0, 1, 2]), ...trials(1, [2, 2, 2])];
    const b = [...trials(0, [3, 2, 1]), ...trials(1, [4, 4, 4])];
    const s = compareRuns(a, b).scores[0];
    expect(s).toMatchObject({ pairs: 2, meanA: 1.5, meanB: 3, meanDifference: 1.5, improved: 2 });
    // sd of [1, 2] = 0.707107; se = 0.5; t(df 1) = 12.706 → half-width 6.353.
    const half = tCritical95(1) * 0.5;
    expect(s?.ci95?.low).toBeCloseTo(1.5 - half, 5);
    expect(s?.ci95?.high).toBeCloseTo(1.5 + half, 5);
  });

  it('pairs only shared rows, counts booleans as 1/0, compares object scores per key, and lists changed rows', () => {
    const a = [
      row(0, { ok: true, judge: { rel: 3 } }),
      row(1, { ok: false, judge: { rel: 2 } }),
      row(2, { ok: true, judge: { rel: 5 } }),
      row(3, { ok: true }),
    ];
    const b = [
      row(0, { ok: true, judge: { rel: 3 } }),
      row(1, { ok: true, judge: { rel: 4 } }),
      row(2, { ok: false, judge: { rel: 5 } }, { error: { name: 'Error', message: 'x' } }),
      row(4, { ok: true }),
    ];
    const cmp = compareRuns(a, b);
    expect(cmp).toMatchObject({ pairedBy: 'rowIndex', shared: 3, onlyInA: 1, onlyInB: 1 });
    const ok = cmp.scores.find((s) => s.score === 'ok');
    // diffs 0, +1, −1 → mean 0; sd 1; se 1/√3; t(2) = 4.303 → ±2.484339
    expect(ok).toMatchObject({ pairs: 3, meanDifference: 0, improved: 1, regressed: 1, unchanged: 1 });
    expect(ok?.ci95?.high).toBeCloseTo(4.303 / Math.sqrt(3), 6);
    expect(cmp.scores.find((s) => s.score === 'judge.rel')).toMatchObject({
      pairs: 3,
      improved: 1,
      unchanged: 2,
    });
    expect(cmp.changed.map((c) => [c.rowIndexA, c.errorB])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it('pairs by row digest when both runs have them, so reordered datasets still pair', () => {
    const d = (c: string) => c.repeat(43);
    const a = [row(0, { s: 1 }, { rowDigest: d('a') }), row(1, { s: 2 }, { rowDigest: d('b') })];
    const b = [row(0, { s: 2 }, { rowDigest: d('b') }), row(1, { s: 5 }, { rowDigest: d('a') })];
    const cmp = compareRuns(a, b);
    expect(cmp.pairedBy).toBe('rowDigest');
    expect(cmp.scores[0]).toMatchObject({ pairs: 2, improved: 1, unchanged: 1, meanDifference: 2 });
    expect(cmp.changed).toEqual([expect.objectContaining({ rowIndexA: 0, rowIndexB: 1 })]);
  });

  it('flips improved and regressed for lower-is-better scores, and has no CI for one pair', () => {
    const cmp = compareRuns([row(0, { cost: 5 })], [row(0, { cost: 3 })], { lowerIsBetter: ['cost'] });
    expect(cmp.scores[0]).toMatchObject({ improved: 1, regressed: 0, ci95: null });
  });
});

describe('tCritical95', () => {
  it('uses the table to df 30 and approaches 1.96 smoothly beyond', () => {
    expect(tCritical95(1)).toBe(12.706);
    expect(tCritical95(30)).toBe(2.042);
    expect(tCritical95(40)).toBeCloseTo(2.021, 3); // exact 2.02108
    expect(tCritical95(120)).toBeCloseTo(1.98, 3); // exact 1.97993
    expect(tCritical95(31)).toBeLessThan(2.042);
    expect(tCritical95(31)).toBeGreaterThan(2.035);
    expect(tCritical95(1e9)).toBeCloseTo(1.96, 3);
  });
});

describe('formatComparison', () => {
  it('prints summaries side by side, the paired table and the changed rows', () => {
    const a = [0, 1, 2].map((i) => row(i, { exact: i > 0 }));
    const b = [0, 1, 2].map((i) => row(i, { exact: true }));
    const ctx = { evaluation: 'qa', rows: 3, trials: 1 };
    const text = formatComparison(compareRuns(a, b), {
      labels: ['base', 'new'],
      summaries: { a: summarize({ ...ctx, model: 'm1' }, a), b: summarize({ ...ctx, model: 'm2' }, b) },
    });
    expect(text).toMatch(/│ model\s+│ m1\s+│ m2\s+│/);
    expect(text).toMatch(/│ exact\s+│ 66\.7%\s+│ 100\.0%\s+│/);
    expect(text).toContain('3 shared rows (paired by rowIndex); only in base: 0, only in new: 0');
    expect(text).toMatch(/│ exact\s+│ 3\s+│ 0\.6667\s+│ 1\.0000\s+│ \+0\.3333\s+│/);
    expect(text).toContain('1 changed row(s)');
    expect(text).toContain('exact: false → true');
  });
});
