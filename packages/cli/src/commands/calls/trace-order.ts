import type { Call } from '@weft/protocol';

/** A call with its depth in the printed tree (0 for a root). */
export interface CallAtDepth {
  call: Call;
  depth: number;
}

/**
 * Orders the calls of a trace depth-first, children by start time, so the
 * table reads as a tree. A call whose parent is not among `calls` (not
 * listed, or cut off by `--limit`) is shown as a root rather than dropped.
 */
export function traceOrder(calls: readonly Call[]): CallAtDepth[] {
  const ids = new Set(calls.map((c) => c.id));
  const children = new Map<string | null, Call[]>();
  for (const call of calls) {
    const parent = call.parentId !== null && ids.has(call.parentId) ? call.parentId : null;
    const siblings = children.get(parent);
    if (siblings) siblings.push(call);
    else children.set(parent, [call]);
  }
  for (const siblings of children.values()) {
    siblings.sort((a, b) => a.startedAt - b.startedAt || a.id.localeCompare(b.id));
  }
  const out: CallAtDepth[] = [];
  // Iterative, so a pathologically deep trace cannot overflow the stack.
  const stack: CallAtDepth[] = (children.get(null) ?? []).map((call) => ({ call, depth: 0 })).reverse();
  for (let next = stack.pop(); next; next = stack.pop()) {
    out.push(next);
    const kids = children.get(next.call.id) ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ call: kids[i]!, depth: next.depth + 1 });
  }
  return out;
}
