import { describe, expect, it } from 'vitest';
import type { Call } from '../api/protocol.js';
import { scoreIntervals, verdict } from './score-intervals.js';

const rowCall = (rowIndex: number, trial: number, s: number): Call =>
  ({
    project: 'p',
    id: `${rowIndex}-${trial}`,
    traceId: 't',
    parentId: 'r',
    opName: 'Evaluation.predict_and_score',
    displayName: null,
    startedAt: 0,
    endedAt: 1,
    status: 'success',
    inputs: {},
    exception: null,
    summary: null,
    attributes: {},
    output: { rowIndex, trial, scores: { s }, output: null, latencyMs: 1 },
  }) as Call;

describe('scoreIntervals', () => {
  it('averages trials per row before pairing, and flips the verdict for lower-is-better', () => {
    const a = [
      rowCall(0, 0, 0),
      rowCall(0, 1, 2),
      rowCall(1, 0, 1),
      rowCall(1, 1, 1),
      rowCall(2, 0, 0),
      rowCall(2, 1, 0),
    ];
    const b = [
      rowCall(0, 0, 3),
      rowCall(0, 1, 3),
      rowCall(1, 0, 4),
      rowCall(1, 1, 2),
      rowCall(2, 0, 2),
      rowCall(2, 1, 2),
    ];
    const [s] = scoreIntervals(a, b, new Set());
    // Row means A = [1, 1, 0], B = [3, 3, 2]: every difference is 2.
    expect(s).toMatchObject({ score: 's', pairs: 3, meanDifference: 2 });
    expect(s?.ci95).toEqual({ low: 2, high: 2 });
    expect(verdict(s!, false)).toBe('better');
    expect(verdict(s!, true)).toBe('worse');
  });
});
