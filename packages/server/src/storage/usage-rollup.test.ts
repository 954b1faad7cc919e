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

  it('compares totals by value: stored keys in another order are the same, one count off or one model more is a change', () => {
    const stored = (counts: Record<string, number>, extra?: string): UsageNode => ({
      ...spanNode('leaf', null, 4),
      usage: {
        'gpt-4o': counts as never,
        ...(extra === undefined
          ? {}
          : { [extra]: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 } }),
      },
    });
    const own = usage(4)['gpt-4o'] as Record<string, number>;
    const reversed = Object.fromEntries(Object.entries(own).reverse());
    expect(rollUpUsage(treeOf([stored(reversed)]), ['leaf']).size).toBe(0);
    expect(rollUpUsage(treeOf([stored({ ...own, outputTokens: 1 })]), ['leaf']).size).toBe(1);
    expect(rollUpUsage(treeOf([stored({ ...reversed, cachedInputTokens: 0 })]), ['leaf']).size).toBe(1);
    expect(rollUpUsage(treeOf([stored(own, 'gpt-4o-mini')]), ['leaf']).size).toBe(1);
  });
});
