import { parseRef } from '../refs/index.js';

/** What a trace tree needs of a call (a protocol `Call` has all of it). */
export interface TreeCall {
  readonly id: string;
  readonly parentId: string | null;
  readonly opName: string;
  readonly startedAt: number;
}

/** One call in its trace, with its place: its children in start order and its step path. */
export interface TraceNode<C extends TreeCall = TreeCall> {
  readonly call: C;
  readonly parent: TraceNode<C> | undefined;
  readonly children: TraceNode<C>[];
  /** Its index among its parent's children of the same op (0 for the root). */
  readonly position: number;
  /**
   * Its step path: the plain op names from the root down, each child with
   * its position among same-op siblings (`agent/step[12]/llm[0]`). The
   * same call of two runs of one agent has the same path.
   */
  readonly path: string;
}

/** A trace's calls as a tree: roots (a complete trace has one) and every node by call id. */
export interface TraceTree<C extends TreeCall = TreeCall> {
  readonly roots: TraceNode<C>[];
  readonly byId: ReadonlyMap<string, TraceNode<C>>;
  /** Every node in depth-first start order (a parent before its children). */
  readonly nodes: readonly TraceNode<C>[];
}

const OP_PREFIX = 'weft:///';

/** The plain name of an op: `weft:///p/op/<name>:<digest>` gives `<name>`; any other string is already plain. */
export function plainOpName(opName: string): string {
  if (!opName.startsWith(OP_PREFIX)) return opName;
  try {
    const ref = parseRef(opName);
    return ref.kind === 'op' || ref.kind === 'object' ? ref.name : opName;
  } catch {
    return opName;
  }
}

/** Orders siblings as they started: by start time, then by id (ids of one process sort in creation order). */
export function byStart(a: TreeCall, b: TreeCall): number {
  return a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The tree of one trace's calls. A call whose parent is not among `calls`
 * is a root. Built iteratively (no recursion limit).
 */
export function traceTree<C extends TreeCall>(calls: readonly C[]): TraceTree<C> {
  const sorted = [...calls].sort(byStart);
  const ids = new Set(sorted.map((call) => call.id));
  const childrenOf = new Map<string | null, C[]>();
  for (const call of sorted) {
    const parent = call.parentId !== null && ids.has(call.parentId) ? call.parentId : null;
    const list = childrenOf.get(parent);
    if (list === undefined) childrenOf.set(parent, [call]);
    else list.push(call);
  }
  const byId = new Map<string, TraceNode<C>>();
  const nodes: TraceNode<C>[] = [];
  const roots: TraceNode<C>[] = [];
  const place = (list: C[] | undefined, parent: TraceNode<C> | undefined, into: TraceNode<C>[]) => {
    const seen = new Map<string, number>();
    return (list ?? []).map((call) => {
      const name = plainOpName(call.opName);
      const position = seen.get(name) ?? 0;
      seen.set(name, position + 1);
      const segment = `${name}[${position}]`;
      const node: TraceNode<C> = {
        call,
        parent,
        children: [],
        position,
        path: parent === undefined ? (position === 0 ? name : segment) : `${parent.path}/${segment}`,
      };
      into.push(node);
      return node;
    });
  };
  const stack = place(childrenOf.get(null), undefined, roots).reverse();
  while (stack.length > 0) {
    const node = stack.pop() as TraceNode<C>;
    byId.set(node.call.id, node);
    nodes.push(node);
    const children = place(childrenOf.get(node.call.id), node, node.children);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as TraceNode<C>);
  }
  return { roots, byId, nodes };
}

/** Normalizes a step path as people write it: `agent/step[12]/llm` is `agent/step[12]/llm[0]`. */
export function normalizeStepPath(path: string): string {
  return path
    .split('/')
    .filter((segment) => segment.length > 0)
    .map((segment, i) => {
      const indexed = /^(.*)\[(\d+)\]$/.exec(segment);
      const name = indexed ? (indexed[1] as string) : segment;
      const position = indexed ? Number(indexed[2]) : 0;
      return i === 0 && position === 0 ? name : `${name}[${position}]`;
    })
    .join('/');
}

/** The node at a step path (see {@link TraceNode.path}) or with that call id. */
export function findStep<C extends TreeCall>(tree: TraceTree<C>, step: string): TraceNode<C> | undefined {
  const byId = tree.byId.get(step);
  if (byId !== undefined) return byId;
  const path = normalizeStepPath(step);
  return tree.nodes.find((node) => node.path === path);
}
