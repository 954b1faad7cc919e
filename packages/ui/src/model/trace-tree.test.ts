import { describe, expect, it } from 'vitest';
import type { Call } from '../api/protocol.js';
import { ancestorIds, barPlacement, buildTraceTree, visibleNodes } from './trace-tree.js';

const id = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
function call(n: number, parent: number | null, startedAt: number, endedAt: number | null): Call {
  return {
    project: 'p',
    id: id(n),
    traceId: id(1),
    parentId: parent === null ? null : id(parent),
    opName: `op${n}`,
    displayName: null,
    startedAt,
    endedAt,
    status: endedAt === null ? 'running' : 'success',
    inputs: {},
    output: null,
    exception: null,
    summary: null,
    attributes: {},
  };
}

describe('trace tree', () => {
  const calls = [
    call(3, 1, 20, 30),
    call(1, null, 0, 100),
    call(2, 1, 10, 15),
    call(4, 3, 21, 22),
    call(5, 99, 50, 60),
  ];

  it('orders children by start and keeps orphans as roots', () => {
    const tree = buildTraceTree(calls, 1_000);
    expect(tree.roots.map((n) => n.call.id)).toEqual([id(1), id(5)]);
    expect(tree.byId.get(id(1))!.children.map((n) => n.call.id)).toEqual([id(2), id(3)]);
    expect(tree.byId.get(id(4))!.depth).toBe(2);
    expect(tree.startMs).toBe(0);
    expect(tree.endMs).toBe(100);
  });

  it('shows only children of expanded nodes, depth first', () => {
    const tree = buildTraceTree(calls, 1_000);
    expect(visibleNodes(tree, new Set()).map((n) => n.call.opName)).toEqual(['op1', 'op5']);
    expect(visibleNodes(tree, new Set([id(1)])).map((n) => n.call.opName)).toEqual([
      'op1',
      'op2',
      'op3',
      'op5',
    ]);
    expect(visibleNodes(tree, new Set([id(1), id(3)])).map((n) => n.call.opName)).toEqual([
      'op1',
      'op2',
      'op3',
      'op4',
      'op5',
    ]);
    expect(ancestorIds(tree, id(4))).toEqual([id(3), id(1)]);
  });

  it('places waterfall bars by start and duration, running calls up to now', () => {
    const tree = buildTraceTree([call(1, null, 0, 100), call(2, 1, 25, null)], 50);
    expect(barPlacement(tree, tree.byId.get(id(2))!.call, 50)).toEqual({ left: 0.25, width: 0.25 });
  });

  it('handles a 5,000-deep chain without overflowing the stack', () => {
    const chain = Array.from({ length: 5_000 }, (_, i) => call(i + 1, i === 0 ? null : i, i, 10_000));
    const tree = buildTraceTree(chain, 0);
    const all = new Set(chain.map((c) => c.id));
    expect(visibleNodes(tree, all)).toHaveLength(5_000);
  });
});
