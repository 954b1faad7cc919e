import { describe, expect, it } from 'vitest';
import { findStep, normalizeStepPath, traceTree } from './trace-tree.js';
import { valueDifferences } from './value-differences.js';

const call = (id: string, parentId: string | null, opName: string, startedAt: number) => ({
  id,
  parentId,
  opName,
  startedAt,
});

describe('traceTree', () => {
  it('names each call by its op path and position among same-op siblings, in start order whatever the input order', () => {
    const tree = traceTree([
      call('c', 'a', 'llm', 3),
      call('b', 'a', 'tool', 2),
      call('d', 'a', 'tool', 4),
      call('a', null, 'weft:///p/op/agent:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 1),
    ]);
    expect(tree.nodes.map((n) => n.path)).toEqual([
      'agent',
      'agent/tool[0]',
      'agent/llm[0]',
      'agent/tool[1]',
    ]);
    expect(findStep(tree, 'agent/tool[1]')?.call.id).toBe('d');
    expect(findStep(tree, 'agent/llm')?.call.id).toBe('c');
    expect(findStep(tree, 'b')?.path).toBe('agent/tool[0]');
    expect(findStep(tree, 'agent/tool[2]')).toBeUndefined();
  });

  it('normalizes step paths as people write them', () => {
    expect(normalizeStepPath('/agent/step[12]/llm/')).toBe('agent/step[12]/llm[0]');
    expect(normalizeStepPath('agent[0]/step[1]')).toBe('agent/step[1]');
  });
});

describe('valueDifferences', () => {
  it('lists changed, added and removed leaves with readable paths, objects by sorted key and arrays by index', () => {
    expect(
      valueDifferences(
        { messages: [{ content: 'a' }, { content: 'b' }], 'odd key': 1, same: true },
        { messages: [{ content: 'a' }, { content: 'B' }, { content: 'c' }], same: true, extra: null },
      ),
    ).toEqual([
      { path: 'extra', kind: 'added', right: null },
      { path: 'messages[1].content', kind: 'changed', left: 'b', right: 'B' },
      { path: 'messages[2]', kind: 'added', right: { content: 'c' } },
      { path: '["odd key"]', kind: 'removed', left: 1 },
    ]);
  });

  it('treats an undefined member as absent, a change of shape as one difference, and stops at the limit', () => {
    expect(valueDifferences({ a: undefined }, {})).toEqual([]);
    expect(valueDifferences({ a: [1] }, { a: { 0: 1 } })).toEqual([
      { path: 'a', kind: 'changed', left: [1], right: { 0: 1 } },
    ]);
    expect(valueDifferences([1, 2, 3], [4, 5, 6], 2)).toHaveLength(2);
  });
});
