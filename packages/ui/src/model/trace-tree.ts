import type { Call } from '../api/index.js';

/** One call in a trace's tree. */
export interface TraceNode {
  call: Call;
  depth: number;
  parent: TraceNode | undefined;
  children: TraceNode[];
}

/** A trace as a tree, with its time span for the waterfall. */
export interface TraceTree {
  roots: TraceNode[];
  byId: Map<string, TraceNode>;
  startMs: number;
  endMs: number;
}

/**
 * Builds the tree of a trace's calls. A call whose parent is missing (not
 * arrived yet, or outside the trace) becomes a root rather than vanishing.
 * Children are ordered by start time. Iterative, so a deep chain cannot
 * overflow the stack.
 */
export function buildTraceTree(calls: readonly Call[], nowMs: number): TraceTree {
  const byId = new Map<string, TraceNode>();
  for (const call of calls) byId.set(call.id, { call, depth: 0, parent: undefined, children: [] });
  const roots: TraceNode[] = [];
  let startMs = Number.POSITIVE_INFINITY;
  let endMs = Number.NEGATIVE_INFINITY;
  for (const node of byId.values()) {
    const parent = node.call.parentId === null ? undefined : byId.get(node.call.parentId);
    if (parent === undefined || parent === node) roots.push(node);
    else {
      node.parent = parent;
      parent.children.push(node);
    }
    startMs = Math.min(startMs, node.call.startedAt);
    endMs = Math.max(endMs, node.call.endedAt ?? nowMs);
  }
  const byStart = (a: TraceNode, b: TraceNode) => a.call.startedAt - b.call.startedAt;
  roots.sort(byStart);
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    node.children.sort(byStart);
    for (const child of node.children) {
      child.depth = node.depth + 1;
      stack.push(child);
    }
  }
  if (byId.size === 0) startMs = endMs = nowMs;
  return { roots, byId, startMs, endMs: Math.max(endMs, startMs) };
}

/** The rows shown: nodes in depth-first order, skipping children of collapsed nodes. */
export function visibleNodes(tree: TraceTree, expanded: ReadonlySet<string>): TraceNode[] {
  const out: TraceNode[] = [];
  const stack = [...tree.roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    if (expanded.has(node.call.id)) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return out;
}

/** Ids of `id`'s ancestors, so a selected deep call can be revealed. */
export function ancestorIds(tree: TraceTree, id: string): string[] {
  const out: string[] = [];
  let node = tree.byId.get(id)?.parent;
  while (node !== undefined) {
    out.push(node.call.id);
    node = node.parent;
  }
  return out;
}

/** A call's waterfall bar as fractions of the trace span. */
export function barPlacement(
  tree: Pick<TraceTree, 'startMs' | 'endMs'>,
  call: Pick<Call, 'startedAt' | 'endedAt'>,
  nowMs: number,
): { left: number; width: number } {
  const span = Math.max(tree.endMs - tree.startMs, 1e-6);
  const left = (call.startedAt - tree.startMs) / span;
  const width = ((call.endedAt ?? nowMs) - call.startedAt) / span;
  return { left: clamp(left), width: clamp(width, 0, 1 - clamp(left)) };
}

function clamp(x: number, lo = 0, hi = 1): number {
  return Math.min(hi, Math.max(lo, x));
}

/** A model call of a tree: it has token usage and no child that has any (the usage is its own). */
export function isModelCall(node: TraceNode): boolean {
  return (
    node.call.summary?.usage !== undefined && !node.children.some((c) => c.call.summary?.usage !== undefined)
  );
}

/** Tokens of a trace (its roots', which include their descendants') and how many model calls it made. */
export function traceTotals(tree: TraceTree): { tokens: number; modelCalls: number } {
  let tokens = 0;
  for (const root of tree.roots) {
    for (const usage of Object.values(root.call.summary?.usage ?? {})) {
      tokens += usage.totalTokens || usage.inputTokens + usage.outputTokens;
    }
  }
  let modelCalls = 0;
  for (const node of tree.byId.values()) if (isModelCall(node)) modelCalls++;
  return { tokens, modelCalls };
}
