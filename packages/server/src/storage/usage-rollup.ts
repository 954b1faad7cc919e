import { addUsage, type CallSummary, type ModelUsage, totalCostUsd } from '@weft/protocol';
import type { SpanUsage } from './span-usage.js';

type UsageMap = Record<string, ModelUsage>;

/** One stored call as the roll-up reads it. */
export interface UsageNode {
  id: string;
  parentId: string | null;
  /** The span's own usage; `undefined` for a call the SDK recorded (never recomputed here). */
  span: SpanUsage | undefined;
  /** `summary.usage` as stored: this call's totals (a span call's may be stale until rolled up). */
  usage: UsageMap | undefined;
}

/** Where the roll-up reads calls from: an engine's store, read lazily or from rows loaded up front. */
export interface UsageTree {
  /** A call whose start is stored, or `undefined`. */
  node(id: string): UsageNode | undefined;
  /** The stored calls whose parent is `id`. */
  children(id: string): readonly UsageNode[];
}

/**
 * New `summary.usage` totals after calls made from spans were stored: for
 * each id in `touched` and each of its ancestors, up to the first that is
 * not a span call (an SDK call's summary is the SDK's and already counts its
 * own descendants) or is not stored yet. Returns only the calls whose totals
 * changed (`undefined`: no usage at all).
 *
 * A span call's total is its own usage plus each child's total, whatever
 * kind the child is (an SDK call under a span counts with its summary). A
 * span whose own usage already totals its steps (`scope: 'steps'`, the AI
 * SDK's `ai.generateText`) does not add the children that report usage of
 * their own (those steps), only the others (a tool call and what it ran).
 *
 * Totals are recomputed from each call's own usage, never incremented, so a
 * re-sent span, a child stored before its parent, or a tree sent over many
 * requests all end at the totals the SDK would show for the same tree.
 * Ancestors are recomputed deepest first (Kahn's order); calls whose parent
 * ids form a cycle are left as sent.
 */
export function rollUpUsage(tree: UsageTree, touched: Iterable<string>): Map<string, UsageMap | undefined> {
  const nodes = new Map<string, UsageNode>();
  for (const id of touched) {
    let node = tree.node(id);
    while (node !== undefined && node.span !== undefined && !nodes.has(node.id)) {
      nodes.set(node.id, node);
      node = node.parentId === null ? undefined : tree.node(node.parentId);
    }
  }
  // Children still to recompute, per call; a call is ready when it has none.
  const waiting = new Map<string, number>();
  for (const node of nodes.values()) {
    if (node.parentId !== null && nodes.has(node.parentId)) {
      waiting.set(node.parentId, (waiting.get(node.parentId) ?? 0) + 1);
    }
  }
  const ready = [...nodes.values()].filter((node) => !waiting.has(node.id));
  const totals = new Map<string, UsageMap | undefined>();
  const changed = new Map<string, UsageMap | undefined>();
  for (let node = ready.pop(); node !== undefined; node = ready.pop()) {
    const total = totalOf(node, tree.children(node.id), totals);
    totals.set(node.id, total);
    if (!sameUsage(total, node.usage)) changed.set(node.id, total);
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent === undefined) continue;
    const left = (waiting.get(parent.id) ?? 0) - 1;
    waiting.set(parent.id, left);
    if (left === 0) ready.push(parent);
  }
  return changed;
}

function totalOf(
  node: UsageNode,
  children: readonly UsageNode[],
  totals: ReadonlyMap<string, UsageMap | undefined>,
): UsageMap | undefined {
  const span = node.span as SpanUsage;
  let total = addUsage(undefined, span.usage);
  for (const child of children) {
    if (child.id === node.id) continue;
    if (span.scope === 'steps' && child.span?.usage !== undefined) continue;
    total = addUsage(total, totals.has(child.id) ? totals.get(child.id) : child.usage);
  }
  return total;
}

/** Equal totals, whatever the key order (an absent count equals an `undefined` one): run for every call a roll-up visits. */
function sameUsage(a: UsageMap | undefined, b: UsageMap | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  for (const model of Object.keys(b)) if (!Object.hasOwn(a, model)) return false;
  for (const model of Object.keys(a)) {
    if (!Object.hasOwn(b, model) || !sameCounts(a[model] as ModelUsage, b[model] as ModelUsage)) return false;
  }
  return true;
}

function sameCounts(a: ModelUsage, b: ModelUsage): boolean {
  const left = a as unknown as Record<string, unknown>;
  const right = b as unknown as Record<string, unknown>;
  for (const key of Object.keys(left)) if (left[key] !== right[key]) return false;
  for (const key of Object.keys(right)) if (left[key] !== right[key]) return false;
  return true;
}

/** `summary` with rolled-up `usage` and the `costUsd` it gives (both dropped when there is none). */
export function summaryWithUsage(summary: CallSummary, usage: UsageMap | undefined): CallSummary {
  const { usage: _usage, costUsd: _cost, ...rest } = summary;
  const costUsd = totalCostUsd(usage);
  return {
    ...rest,
    ...(usage === undefined ? {} : { usage }),
    ...(costUsd === undefined ? {} : { costUsd }),
  };
}
