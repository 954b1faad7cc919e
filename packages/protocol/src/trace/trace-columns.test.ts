import { describe, expect, it } from 'vitest';
import {
  callsOfTraceColumns,
  type TraceColumnsCall,
  TraceColumnsError,
  traceColumnsOf,
} from './trace-columns.js';

const TRACE = '00000000-0000-4000-8000-000000000000';
const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A light call of the trace (as `traceCallsResponse` holds it). */
function light(n: number, fields: Partial<TraceColumnsCall> = {}): TraceColumnsCall {
  return {
    project: 'p',
    id: idOf(n),
    traceId: TRACE,
    parentId: n === 0 ? null : TRACE,
    opName: n % 2 === 0 ? 'chat' : 'tool',
    displayName: null,
    startedAt: 1_700_000_000_000 + n + 0.001,
    endedAt: n === 3 ? null : 1_700_000_000_010 + n,
    status: n === 3 ? 'running' : 'success',
    inputs: {},
    output: null,
    exception: null,
    summary: { usage: { m: { inputTokens: 1, outputTokens: 2, totalTokens: 3, requests: 1 } } },
    attributes: { env: n % 2 === 0 ? 'dev' : 'prod' },
    ...fields,
  };
}

describe('trace columns', () => {
  it('give back the calls they were made of, in order', () => {
    const calls = [
      light(0, { sessionId: 's1' }),
      light(1, { displayName: 'first tool', exception: { name: 'Error', message: 'boom' }, status: 'error' }),
      light(2, { parentId: idOf(1), summary: null }),
      light(3, { parentId: idOf(99) }),
    ];
    const columns = traceColumnsOf('p', TRACE, calls, true);
    expect(columns.truncated).toBe(true);
    // A parent in the answer by its index, one outside by its id.
    expect(columns.parents).toEqual([null, 0, 1, idOf(99)]);
    expect(JSON.parse(JSON.stringify(callsOfTraceColumns(columns)))).toEqual(calls);
  });

  it('hold each distinct string and value once, whichever objects hold equal values', () => {
    const calls = Array.from({ length: 100 }, (_, n) => light(n));
    const columns = traceColumnsOf('p', TRACE, calls, false);
    expect(columns.strings).toEqual(['chat', 'tool']);
    // Two attributes ({env: dev}, {env: prod}) and one summary, though every call has its own objects.
    expect(columns.values).toHaveLength(3);
    expect(new Set(columns.attributes)).toEqual(new Set([0, 2]));
    expect(callsOfTraceColumns(columns)).toEqual(calls);
  });

  it('refuse columns that do not line up, naming what is wrong', () => {
    const columns = traceColumnsOf('p', TRACE, [light(0), light(1)], false);
    expect(() => callsOfTraceColumns({ ...columns, status: ['success'] })).toThrow(
      new TraceColumnsError('status holds 1 entries, ids 2'),
    );
    expect(() => callsOfTraceColumns({ ...columns, opName: [0, 7] })).toThrow(/no string 7/);
    expect(() => callsOfTraceColumns({ ...columns, parents: [null, 5] })).toThrow(/parent 5/);
    expect(() => callsOfTraceColumns({ ...columns, summary: [0, 9] })).toThrow(TraceColumnsError);
  });
});
