import { type TraceNode, type TreeCall, traceTree } from './trace-tree.js';
import { type ValueDifference, valueDifferences } from './value-differences.js';

/** What aligning needs of a call (a protocol `Call` has all of it). */
export interface DiffCall extends TreeCall {
  readonly status: string;
  readonly inputs: unknown;
  readonly output: unknown;
  readonly exception: { readonly name: string; readonly message: string } | null;
}

/** One step of two aligned traces: the call at one step path on each side. */
export interface AlignedStep {
  readonly path: string;
  /** The left trace's call there, if it has one. */
  readonly left: string | null;
  readonly right: string | null;
  /** Nesting depth (0 for the root). */
  readonly depth: number;
  /** `same`; `changed` (inputs, output, exception or status differ); `left-only`; `right-only`. */
  readonly status: 'same' | 'changed' | 'left-only' | 'right-only';
  /** True where a difference starts: a step on one side only, different inputs, or a different result that no child step explains. */
  readonly origin: boolean;
  readonly inputs: ValueDifference[];
  readonly output: ValueDifference[];
}

/** Two traces aligned step by step, in depth-first start order. */
export interface TraceAlignment {
  readonly steps: AlignedStep[];
  /** Index in `steps` of the first divergence (the first `origin`), or `null` when the traces match. */
  readonly firstDivergence: number | null;
}

/** The result a call ended with, comparable across traces. */
function resultOf(call: DiffCall): unknown {
  return call.exception === null
    ? { status: call.status, output: call.output }
    : { status: call.status, exception: { name: call.exception.name, message: call.exception.message } };
}

/** Children of both sides in one order: the left's, each right-only child after the step it followed on the right. */
function mergeChildren<C extends DiffCall>(
  left: readonly TraceNode<C>[],
  right: readonly TraceNode<C>[],
): { path: string; left?: TraceNode<C>; right?: TraceNode<C> }[] {
  const suffix = (node: TraceNode<C>) => node.path.slice(node.path.lastIndexOf('/') + 1);
  const rightBy = new Map(right.map((node) => [suffix(node), node]));
  const leftKeys = new Set(left.map(suffix));
  const merged: { path: string; left?: TraceNode<C>; right?: TraceNode<C> }[] = [];
  const insertAfter = new Map<string | null, TraceNode<C>[]>();
  let previous: string | null = null;
  for (const node of right) {
    const key = suffix(node);
    if (leftKeys.has(key)) previous = key;
    else {
      const list = insertAfter.get(previous) ?? [];
      list.push(node);
      insertAfter.set(previous, list);
    }
  }
  for (const node of insertAfter.get(null) ?? []) merged.push({ path: suffix(node), right: node });
  for (const node of left) {
    const key = suffix(node);
    merged.push({ path: key, left: node, right: rightBy.get(key) });
    for (const only of insertAfter.get(key) ?? []) merged.push({ path: suffix(only), right: only });
  }
  return merged;
}

/**
 * Aligns two traces of the same entry op by step path (op path and
 * position among same-op siblings): their roots with each other, then each
 * step's children by path. Lists each step's input and output differences
 * (at most `limit` each) and marks where differences start.
 */
export function alignTraces<C extends DiffCall>(
  leftCalls: readonly C[],
  rightCalls: readonly C[],
  limit = 20,
): TraceAlignment {
  const left = traceTree(leftCalls).roots[0];
  const right = traceTree(rightCalls).roots[0];
  const steps: AlignedStep[] = [];
  const visit = (
    path: string,
    depth: number,
    l: TraceNode<C> | undefined,
    r: TraceNode<C> | undefined,
  ): boolean => {
    const index = steps.length;
    const inputs = l && r ? valueDifferences(l.call.inputs, r.call.inputs, limit) : [];
    const output = l && r ? valueDifferences(resultOf(l.call), resultOf(r.call), limit) : [];
    steps.push({
      path,
      left: l?.call.id ?? null,
      right: r?.call.id ?? null,
      depth,
      status: 'same',
      origin: false,
      inputs,
      output,
    });
    let childrenSame = true;
    for (const child of mergeChildren(l?.children ?? [], r?.children ?? [])) {
      if (!visit(`${path}/${child.path}`, depth + 1, child.left, child.right)) childrenSame = false;
    }
    const oneSided = l === undefined || r === undefined;
    const status =
      l === undefined
        ? 'right-only'
        : r === undefined
          ? 'left-only'
          : inputs.length > 0 || output.length > 0
            ? 'changed'
            : 'same';
    const origin = oneSided || inputs.length > 0 || (output.length > 0 && childrenSame);
    steps[index] = { ...(steps[index] as AlignedStep), status, origin };
    return status === 'same';
  };
  if (left !== undefined || right !== undefined) {
    visit((left ?? right)?.path ?? '', 0, left, right);
  }
  const first = steps.findIndex((step) => step.origin);
  return { steps, firstDivergence: first < 0 ? null : first };
}
