import type { Call } from '@weft/protocol';
import { latencyOf, opNameOf } from '../render/index.js';

/** A call in the tree of its trace, with what the outline ranks by. */
export interface TraceNode {
  readonly call: Call;
  readonly op: string;
  readonly parent: TraceNode | undefined;
  readonly children: TraceNode[];
  readonly depth: number;
  /** Latency in ms (0 while running). */
  readonly latencyMs: number;
  /** Calls in this subtree, itself included. */
  size: number;
  /** Error calls in this subtree, itself included. */
  errors: number;
}

/** The trace's calls as trees (one per root; a call whose parent is missing is a root), children by start time. */
export function traceTree(calls: readonly Call[]): TraceNode[] {
  const byId = new Map(calls.map((c) => [c.id, c]));
  const nodes = new Map<string, TraceNode>();
  const roots: TraceNode[] = [];
  // Parents first (a call starts after its parent), so each parent's node exists when its child is made.
  const ordered = [...calls].sort((a, b) => a.startedAt - b.startedAt || a.id.localeCompare(b.id));
  const pending: Call[] = [];
  const make = (call: Call, parent: TraceNode | undefined) => {
    const node: TraceNode = {
      call,
      op: opNameOf(call.opName),
      parent,
      children: [],
      depth: parent === undefined ? 0 : parent.depth + 1,
      latencyMs: latencyOf(call) ?? 0,
      size: 1,
      errors: call.status === 'error' ? 1 : 0,
    };
    nodes.set(call.id, node);
    if (parent) parent.children.push(node);
    else roots.push(node);
  };
  for (const call of ordered) {
    const parentId = call.parentId !== null && byId.has(call.parentId) ? call.parentId : null;
    if (parentId === null) make(call, undefined);
    else if (nodes.has(parentId)) make(call, nodes.get(parentId));
    else pending.push(call); // a child whose clock ran ahead of its parent's
  }
  // Rare: children that started "before" their parent (clock skew across processes).
  for (let progress = true; pending.length > 0 && progress; ) {
    progress = false;
    for (let i = pending.length - 1; i >= 0; i--) {
      const call = pending[i]!;
      const parent = nodes.get(call.parentId!);
      if (parent) {
        make(call, parent);
        pending.splice(i, 1);
        progress = true;
      }
    }
  }
  for (const call of pending) make(call, undefined); // a parent cycle: shown as roots
  // Sizes and error counts, children before parents (deepest first), without recursion.
  const all = [...nodes.values()].sort((a, b) => b.depth - a.depth);
  for (const node of all) {
    if (node.parent) {
      node.parent.size += node.size;
      node.parent.errors += node.errors;
    }
  }
  return roots;
}

/** From `node` down, always into the slowest child: where the time went. */
export function slowestPath(node: TraceNode): TraceNode[] {
  const path = [node];
  for (let at = node; at.children.length > 0; ) {
    at = at.children.reduce((a, b) => (b.latencyMs > a.latencyMs ? b : a));
    path.push(at);
  }
  return path;
}

/**
 * The failing calls that caused the others to fail: error calls with no
 * failing child, earliest first, at most `max`.
 */
export function rootCauses(roots: readonly TraceNode[], max: number): TraceNode[] {
  const found: TraceNode[] = [];
  const stack = [...roots].reverse();
  while (stack.length > 0 && found.length < max) {
    const node = stack.pop()!;
    if (node.errors === 0) continue;
    const failingChildren = node.children.filter((c) => c.errors > 0);
    if (node.call.status === 'error' && failingChildren.length === 0) found.push(node);
    for (let i = failingChildren.length - 1; i >= 0; i--) stack.push(failingChildren[i]!);
  }
  return found;
}

/** `node` and its ancestors, root first. */
export function pathTo(node: TraceNode): TraceNode[] {
  const path: TraceNode[] = [];
  for (let at: TraceNode | undefined = node; at; at = at.parent) path.push(at);
  return path.reverse();
}
