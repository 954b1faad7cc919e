import type { Call } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { traceOrder } from './trace-order.js';

const id = (n: number) => `0193a1b2-c3d4-7e5f-8a9b-${n.toString(16).padStart(12, '0')}`;
const call = (n: number, parent: number | null, startedAt: number): Call => ({
  project: 'p',
  id: id(n),
  traceId: id(1),
  parentId: parent === null ? null : id(parent),
  opName: `op${n}`,
  displayName: null,
  startedAt,
  endedAt: null,
  status: 'running',
  inputs: {},
  output: null,
  exception: null,
  summary: null,
  attributes: {},
});
const shape = (calls: Call[]) => traceOrder(calls).map(({ call, depth }) => `${depth}:${call.opName}`);

describe('traceOrder', () => {
  it('lists each parent before its children, siblings by start time, whatever the input order', () => {
    const calls = [call(4, 2, 40), call(3, 1, 30), call(2, 1, 20), call(1, null, 10), call(5, 2, 35)];
    expect(shape(calls)).toEqual(['0:op1', '1:op2', '2:op5', '2:op4', '1:op3']);
    expect(shape([...calls].reverse())).toEqual(['0:op1', '1:op2', '2:op5', '2:op4', '1:op3']);
  });

  it('shows a call whose parent is missing as a root instead of dropping it', () => {
    expect(shape([call(3, 2, 30), call(1, null, 10)])).toEqual(['0:op1', '0:op3']);
  });

  it('handles a trace deeper than the call stack would allow with recursion', () => {
    const depth = 20_000;
    const chain = Array.from({ length: depth }, (_, i) => call(i + 1, i === 0 ? null : i, i));
    const ordered = traceOrder(chain);
    expect(ordered).toHaveLength(depth);
    expect(ordered.at(-1)).toMatchObject({ depth: depth - 1 });
  });
});
