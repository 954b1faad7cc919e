import { describe, expect, it } from 'vitest';
import type { CallItem } from './calls.js';
import { fillImpliedSummary, statusIsImplied } from './implied-status.js';

const failure = { name: 'Error', message: 'failed' };
const record = (type: 'complete' | 'end', fields: Record<string, unknown>): CallItem =>
  ({
    type,
    id: 'a',
    traceId: 'a',
    parentId: null,
    opName: 'op',
    startedAt: 10,
    endedAt: 15,
    ...fields,
  }) as CallItem;

describe('fillImpliedSummary', () => {
  it('puts back the status a complete or end record left out: error with an exception, success without', () => {
    const success = record('complete', { summary: {} });
    const failed = record('complete', { exception: failure, summary: {} });
    const end = record('end', { exception: failure, summary: { latencyMs: 4 } });
    for (const item of [success, failed, end]) fillImpliedSummary(item);
    expect(success).toMatchObject({ summary: { status: 'success', latencyMs: 5 } });
    expect(failed).toMatchObject({ summary: { status: 'error', latencyMs: 5 } });
    expect(end).toMatchObject({ summary: { status: 'error', latencyMs: 4 } });
  });

  it('keeps a status the record gives, and adds no summary to a record without one', () => {
    const given = record('complete', { summary: { status: 'error' } });
    fillImpliedSummary(given);
    expect(given).toMatchObject({ summary: { status: 'error' } });
    const none = record('end', {});
    fillImpliedSummary(none);
    expect(none).not.toHaveProperty('summary');
  });
});

describe('statusIsImplied', () => {
  it('holds only for the status the exception implies', () => {
    expect(statusIsImplied(undefined, { status: 'success' })).toBe(true);
    expect(statusIsImplied(failure, { status: 'error' })).toBe(true);
    expect(statusIsImplied(undefined, { status: 'error' })).toBe(false);
    expect(statusIsImplied(failure, { status: 'success' })).toBe(false);
    expect(statusIsImplied(undefined, {})).toBe(false);
  });
});
