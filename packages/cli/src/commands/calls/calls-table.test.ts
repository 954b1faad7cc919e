import type { Call, CallSummary } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { CALLS_COLUMNS, callRow, formatCallsTable } from './calls-table.js';

const ID = '0193a1b2-c3d4-7e5f-8a9b-000000000001';
const callWith = (summary: CallSummary | null): Call => ({
  project: 'p',
  id: ID,
  traceId: ID,
  parentId: null,
  opName: 'answer',
  displayName: null,
  startedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 6),
  endedAt: Date.UTC(2026, 0, 2, 3, 4, 6, 6),
  status: 'success',
  inputs: {},
  output: null,
  exception: null,
  summary,
  attributes: {},
});
const costCell = (summary: CallSummary | null) =>
  callRow({ call: callWith(summary), depth: 0 })[CALLS_COLUMNS.indexOf('cost')];
const usage = (costUsd?: number) => ({
  m: {
    requests: 1,
    inputTokens: 10,
    outputTokens: 2,
    totalTokens: 12,
    ...(costUsd === undefined ? {} : { costUsd }),
  },
});

describe('the cost column of `weft calls`', () => {
  it.each([
    { case: 'a cent and more', summary: { usage: usage(0.0123), costUsd: 0.0123 }, cell: '$0.0123' },
    { case: 'dollars', summary: { usage: usage(12.5), costUsd: 12.5 }, cell: '$12.50' },
    {
      case: 'a fraction of a cent',
      summary: { usage: usage(0.0000243), costUsd: 0.0000243 },
      cell: '$0.0000243',
    },
    { case: 'an unpriced model (usage, no cost)', summary: { usage: usage() }, cell: '' },
    { case: 'no usage at all', summary: { latencyMs: 3 }, cell: '' },
    { case: 'a running call (no summary)', summary: null, cell: '' },
  ])('$case → "$cell"', ({ summary, cell }) => {
    expect(costCell(summary)).toBe(cell);
  });

  it('lines the column up under its title, blank cells included', () => {
    const text = formatCallsTable([
      { call: callWith({ usage: usage(0.0123), costUsd: 0.0123 }), depth: 0 },
      { call: callWith({ usage: usage() }), depth: 0 },
    ]);
    const [head, , priced, unpriced] = text.split('\n');
    const at = head!.indexOf('cost');
    expect(priced!.slice(at, at + 7)).toBe('$0.0123');
    expect(unpriced!.slice(at, at + 7).trim()).toBe('');
    // The id column still starts where its title does.
    expect(unpriced!.indexOf(ID)).toBe(head!.indexOf('id  '));
  });
});
