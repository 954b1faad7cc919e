import { addUsage, priceUsage } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { rollUpUsage, type UsageNode, type UsageTree } from './usage-rollup.js';

const usage = (tokens: number) =>
  priceUsage({ 'gpt-4o': { requests: 1, inputTokens: tokens, outputTokens: 0, totalTokens: tokens } });

function treeOf(nodes: UsageNode[]): UsageTree {
  return {
    node: (id) => nodes.find((node) => node.id === id),
    children: (id) => nodes.filter((node) => node.parentId === id),
  };
}

const spanNode = (id: string, parentId: string | null, own?: number): UsageNode => ({
  id,
  parentId,
  span: own === undefined ? { scope: 'self' } : { scope: 'self', usage: usage(own) },
  usage: own === undefined ? undefined : usage(own),
});

describe('rollUpUsage', () => {
  it('recomputes a touched call and its span ancestors deepest first, stopping at an SDK-recorded call', () => {
    const sdkRoot: UsageNode = { id: 'sdk', parentId: null, span: undefined, usage: usage(1) };
    const tree = treeOf([
      sdkRoot,
      spanNode('a', 'sdk'),
      spanNode('b', 'a'),
      spanNode('c', 'b', 5),
      spanNode('d', 'a', 7),
    ]);
    const changed = rollUpUsage(tree, ['c']);
    expect(Object.fromEntries([...changed].map(([id, u]) => [id, u?.['gpt-4o']?.inputTokens]))).toEqual({
      b: 5,
      a: 12,
    });
    expect(changed.has('sdk')).toBe(false);
  });

  it('leaves calls whose parent ids form a cycle as they are, and never counts a self-parented call in itself', () => {
    const tree = treeOf([spanNode('x', 'y', 1), spanNode('y', 'x', 2), spanNode('self', 'self', 3)]);
    expect(rollUpUsage(tree, ['x', 'self']).size).toBe(0);
  });

  it('reports nothing when the stored totals are already right (a re-sent leaf)', () => {
    const parent = spanNode('p', null, 2);
    parent.usage = addUsage(usage(2), usage(3));
    const tree = treeOf([parent, spanNode('q', 'p', 3)]);
    expect(rollUpUsage(tree, ['q']).size).toBe(0);
  });
});
