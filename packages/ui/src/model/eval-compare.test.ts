import { describe, expect, it } from 'vitest';
import type { Call, EvaluationSummary } from '../api/protocol.js';
import { compareRows, summaryDeltas } from './eval-compare.js';

function rowCall(id: string, output: unknown): Call {
  return {
    project: 'p',
    id,
    traceId: id,
    parentId: null,
    opName: 'Evaluation.predict_and_score',
    displayName: null,
    startedAt: 0,
    endedAt: 1,
    status: 'success',
    inputs: {},
    output,
    exception: null,
    summary: null,
    attributes: {},
  };
}

const summary = (mean: number, passRate: number): EvaluationSummary => ({
  evaluation: 'e',
  model: 'm',
  rows: 2,
  trials: 1,
  completed: 2,
  errors: 0,
  scores: {
    similarity: { kind: 'number', count: 2, mean, stddev: 0 },
    exact: { kind: 'boolean', count: 2, passed: 1, passRate },
  },
  latencyMs: { p50: 10, p95: 20 },
});

describe('evaluation comparison', () => {
  it('gives per-scorer deltas', () => {
    const deltas = summaryDeltas(summary(0.5, 0.5), summary(0.75, 1));
    expect(deltas.find((d) => d.name === 'similarity')).toMatchObject({
      a: 0.5,
      b: 0.75,
      delta: 0.25,
      metric: 'mean',
    });
    expect(deltas.find((d) => d.name === 'exact')).toMatchObject({ delta: 0.5, metric: 'pass rate' });
    expect(deltas.find((d) => d.name === 'latency p95')).toMatchObject({ delta: 0, higherIsBetter: false });
  });

  it('pairs rows by index and trial and lists the scores that changed', () => {
    const a = [
      rowCall('a0', {
        rowIndex: 0,
        trial: 0,
        output: 'x',
        scores: { exact: true, sim: { f1: 0.5 } },
        latencyMs: 1,
      }),
      rowCall('a1', { rowIndex: 1, trial: 0, output: 'y', scores: { exact: false }, latencyMs: 1 }),
    ];
    const b = [
      rowCall('b1', { rowIndex: 1, trial: 0, output: 'y', scores: { exact: true }, latencyMs: 1 }),
      rowCall('b0', {
        rowIndex: 0,
        trial: 0,
        output: 'x',
        scores: { exact: true, sim: { f1: 0.5 } },
        latencyMs: 1,
      }),
      rowCall('b2', { rowIndex: 2, trial: 0, output: 'z', scores: {}, latencyMs: 1 }),
      rowCall('junk', 'not a row result'),
    ];
    const rows = compareRows(a, b);
    expect(rows.map((r) => [r.rowIndex, r.changed])).toEqual([
      [0, []],
      [1, ['exact']],
      [2, []],
    ]);
    expect(rows[1]!.a!.call.id).toBe('a1');
    expect(rows[1]!.b!.call.id).toBe('b1');
    expect(rows[2]!.a).toBeUndefined();
  });
});
