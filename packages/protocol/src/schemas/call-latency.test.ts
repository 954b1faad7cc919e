import { describe, expect, it } from 'vitest';
import { fillCompleteLatency, latencyIsImplied } from './call-latency.js';
import type { CallItem } from './calls.js';

const complete = (summary: Record<string, unknown> | undefined): CallItem =>
  ({
    type: 'complete',
    id: 'a',
    traceId: 'a',
    parentId: null,
    opName: 'op',
    startedAt: 1_000.25,
    inputs: {},
    endedAt: 1_012.75,
    summary,
  }) as CallItem;

describe('fillCompleteLatency', () => {
  it('puts back the latency a complete record left out as endedAt − startedAt', () => {
    const item = complete({ status: 'success' });
    fillCompleteLatency(item);
    expect(item).toMatchObject({ summary: { latencyMs: 12.5, status: 'success' } });
  });

  it('keeps a latency the record gives, and leaves records without a summary, ends and starts alone', () => {
    const given = complete({ latencyMs: 3 });
    fillCompleteLatency(given);
    expect(given).toMatchObject({ summary: { latencyMs: 3 } });
    const none = complete(undefined);
    fillCompleteLatency(none);
    expect(none).not.toHaveProperty('summary.latencyMs');
    const end = { type: 'end', id: 'a', endedAt: 5, summary: {} } as CallItem;
    fillCompleteLatency(end);
    expect(end).toEqual({ type: 'end', id: 'a', endedAt: 5, summary: {} });
  });

  it('never makes a latency negative, and skips a summary that is not an object', () => {
    const backwards = { ...complete({}), endedAt: 999 } as CallItem;
    fillCompleteLatency(backwards);
    expect(backwards).toMatchObject({ summary: { latencyMs: 0 } });
    const odd = complete(5 as unknown as Record<string, unknown>);
    expect(() => fillCompleteLatency(odd)).not.toThrow();
  });
});

describe('latencyIsImplied', () => {
  it('holds only for the exact difference of the two times', () => {
    const startedAt = performance.timeOrigin + 12.345678;
    const endedAt = performance.timeOrigin + 40.000001;
    expect(latencyIsImplied(startedAt, endedAt, { latencyMs: endedAt - startedAt })).toBe(true);
    expect(latencyIsImplied(startedAt, endedAt, { latencyMs: endedAt - startedAt + 1e-3 })).toBe(false);
    expect(latencyIsImplied(startedAt, endedAt, {})).toBe(false);
  });
});
