import { describe, expect, it } from 'vitest';
import { formatSummary } from './format-summary.js';
import type { RowResult } from './row-result.js';
import { quantile } from './stats.js';
import { summarize } from './summary.js';

const ctx = { evaluation: 'qa', model: 'm', rows: 4, trials: 1 };

describe('summarize', () => {
  it('matches hand-computed means, sample stddevs, pass rates and latency percentiles', () => {
    // acc: 1, 0.5, 0, 0.5 → mean 0.5; deviations .5,0,-.5,0 → Σ² = 0.5; /3 → var 1/6, sd 0.408248…
    // exact: T, F, T, T → 3/4
    // latency: 10, 20, 30, 40 → p50 = 25; p95: h = 3 × .95 = 2.85 → 30 + .85 × 10 = 38.5
    const results: RowResult[] = [
      { rowIndex: 2, trial: 0, output: 'c', scores: { acc: 0, exact: true }, latencyMs: 30 },
      { rowIndex: 0, trial: 0, output: 'a', scores: { acc: 1, exact: true }, latencyMs: 10 },
      { rowIndex: 3, trial: 0, output: 'd', scores: { acc: 0.5, exact: true }, latencyMs: 40 },
      {
        rowIndex: 1,
        trial: 0,
        output: 'b',
        scores: { acc: 0.5, exact: false },
        latencyMs: 20,
        error: { name: 'Error', message: 'x' },
      },
    ];
    const s = summarize(ctx, results);
    expect(s).toEqual({
      ...ctx,
      completed: 4,
      errors: 1,
      scores: {
        acc: { kind: 'number', count: 4, mean: 0.5, stddev: Math.sqrt(1 / 6) },
        exact: { kind: 'boolean', count: 4, passed: 3, passRate: 0.75 },
      },
      latencyMs: { p50: 25, p95: 38.5 },
    });
    expect(s.scores.acc?.kind === 'number' && s.scores.acc.stddev).toBeCloseTo(0.408248, 6);
  });

  it('summarizes object scores per key, counts only rows that have the score, and sums usage per model', () => {
    const results: RowResult[] = [
      {
        rowIndex: 0,
        trial: 0,
        output: null,
        scores: { judge: { relevance: 4, safe: true } },
        latencyMs: 1,
        usage: { gpt: { requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 } },
      },
      {
        rowIndex: 1,
        trial: 0,
        output: null,
        scores: { judge: { relevance: 2, safe: false } },
        latencyMs: 1,
        usage: {
          gpt: { requests: 2, inputTokens: 20, outputTokens: 6, totalTokens: 26 },
          claude: { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 },
        },
      },
      // A model failure: no scores at all.
      {
        rowIndex: 2,
        trial: 0,
        output: null,
        scores: {},
        latencyMs: 1,
        error: { name: 'Error', message: 'boom' },
      },
    ];
    const s = summarize({ ...ctx, rows: 3 }, results);
    expect(s.scores).toEqual({
      judge: {
        kind: 'object',
        keys: {
          // 4, 2 → mean 3, sample var ((1)²+(1)²)/1 = 2 → sd √2
          relevance: { kind: 'number', count: 2, mean: 3, stddev: Math.SQRT2 },
          safe: { kind: 'boolean', count: 2, passed: 1, passRate: 0.5 },
        },
      },
    });
    expect(s.errors).toBe(1);
    expect(s.usage).toEqual({
      gpt: { requests: 3, inputTokens: 30, outputTokens: 11, totalTokens: 41 },
      claude: { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 },
    });
  });

  it('reports the mean per-row variance across trials', () => {
    // row 0 trials: 1, 0, 1 → mean 2/3, Σ² = 1/9+4/9+1/9 = 2/3, /2 → 1/3
    // row 1 trials: 0.5, 0.5, 0.5 → 0
    // mean over rows: 1/6. Boolean pass: row 0 T,T,F → var 1/3; row 1 T,T,T → 0 → 1/6.
    // Object key q.k: row 0 only 1, 3 (two trials) → var 2; row 1 one trial → skipped → 2.
    const r = (rowIndex: number, trial: number, acc: number, pass: boolean, k?: number): RowResult => ({
      rowIndex,
      trial,
      output: null,
      scores: { acc, pass, ...(k === undefined ? {} : { q: { k } }) },
      latencyMs: 1,
    });
    const results = [r(0, 0, 1, true, 1), r(0, 1, 0, true, 3), r(0, 2, 1, false), r(1, 0, 0.5, true, 7)];
    results.push(r(1, 1, 0.5, true), r(1, 2, 0.5, true));
    const s = summarize({ ...ctx, rows: 2, trials: 3 }, results);
    expect(s.rowVariance?.acc).toBeCloseTo(1 / 6, 12);
    expect(s.rowVariance?.pass).toBeCloseTo(1 / 6, 12);
    expect(s.rowVariance?.['q.k']).toBe(2);
    expect(s.completed).toBe(6);
  });

  it('gives the identical summary whatever order rows finished in', () => {
    const results: RowResult[] = Array.from({ length: 50 }, (_, i) => ({
      rowIndex: i,
      trial: 0,
      output: null,
      scores: { x: (i * 0.1) % 0.7 },
      latencyMs: i % 7,
    }));
    const shuffled = [...results].reverse();
    expect(summarize({ ...ctx, rows: 50 }, shuffled)).toStrictEqual(summarize({ ...ctx, rows: 50 }, results));
  });

  it('treats booleans mixed into a numeric scorer as 1 and 0', () => {
    const results: RowResult[] = [
      { rowIndex: 0, trial: 0, output: null, scores: { s: true }, latencyMs: 1 },
      { rowIndex: 1, trial: 0, output: null, scores: { s: 0.5 }, latencyMs: 1 },
    ];
    expect(summarize(ctx, results).scores.s).toEqual({
      kind: 'number',
      count: 2,
      mean: 0.75,
      stddev: Math.sqrt(0.125),
    });
  });
});

describe('quantile', () => {
  it('interpolates between closest ranks and is 0 for no values', () => {
    expect(quantile([], 0.5)).toBe(0);
    expect(quantile([7], 0.95)).toBe(7);
    expect(quantile([40, 10, 30, 20], 0.5)).toBe(25);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 0.95)).toBe(10.5);
  });
});

describe('formatSummary', () => {
  it('prints scores, latency, errors and usage as a plain table', () => {
    const text = formatSummary({
      evaluation: 'qa',
      model: 'm',
      rows: 2,
      trials: 2,
      completed: 4,
      errors: 1,
      scores: {
        exact: { kind: 'boolean', count: 4, passed: 3, passRate: 0.75 },
        judge: { kind: 'object', keys: { relevance: { kind: 'number', count: 4, mean: 3.5, stddev: 0.5 } } },
      },
      latencyMs: { p50: 12, p95: 1500 },
      usage: { gpt: { requests: 4, inputTokens: 40, outputTokens: 20, totalTokens: 60 } },
      rowVariance: { exact: 0.25 },
    });
    expect(text).toContain('Evaluation qa · model m · 2 rows × 2 trials');
    expect(text).toMatch(/│ exact\s+│ 4\s+│ 75\.0% \(3\)\s+│\s+│ 0\.2500\s+│/);
    expect(text).toMatch(/│ judge\.relevance\s+│ 4\s+│ 3\.5000\s+│ 0\.5000\s+│/);
    expect(text).toContain('completed 4/4 · errors 1 · latency p50 12.0 ms p95 1.50 s');
    expect(text).toContain('tokens gpt: 4 requests, 40 in, 20 out, 60 total');
    expect(text).not.toContain('\u001b[');
  });
});
