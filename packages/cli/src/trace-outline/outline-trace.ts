import type { Call } from '@weft/protocol';
import { OutlineBudgetError } from '../errors/index.js';
import { totalTokensOf } from '../render/index.js';
import { compactCount, compactMs, compactUsd } from './compact-figures.js';
import { estimateTokens } from './estimate-tokens.js';
import { callLine, groupLine, hiddenBelow, valueLine } from './outline-lines.js';
import { pathTo, rootCauses, slowestPath, type TraceNode, traceTree } from './trace-tree.js';

/** Options of {@link outlineTrace}. */
export interface OutlineOptions {
  traceId: string;
  project: string;
  /** Most tokens the outline may take (estimated, erring high). */
  maxTokens: number;
}

/** A trace outline and what it shows. */
export interface TraceOutline {
  text: string;
  estimatedTokens: number;
  /** Calls given a line of their own. */
  shownCalls: number;
  totalCalls: number;
}

/** The smallest budget asked for at all. */
export const MIN_OUTLINE_TOKENS = 200;
/** Failing calls whose path is always kept (the rest are counted in the header). */
const PINNED_CAUSES = 3;
/** Groups of sibling ops shown under one call before "… N more". */
const MAX_GROUPS = 25;
/** A group this small may be shown call by call. */
const EXPANDABLE_GROUP = 12;

interface Group {
  key: string;
  op: string;
  members: TraceNode[];
  /** Members slowest first, made when first needed. */
  bySlowest?: TraceNode[];
}

/**
 * What the outline shows. Starts from the kept part — the path to each
 * failing call that caused the others (up to three) and the slowest path,
 * with their values previewed — and grows breadth-first while the estimate
 * stays within budget: a call's children (grouped by op: `search x240
 * (238 ok, 2 ERR) p50 … max …`), then small groups call by call.
 */
class OutlineState {
  readonly revealed = new Set<TraceNode>();
  readonly expanded = new Set<string>();
  readonly pinned = new Set<TraceNode>();
  /** Members of a folded group that have a line of their own below it (the slowest ones). */
  readonly picked = new Set<TraceNode>();
  readonly values = new Set<TraceNode>();
  readonly marks = new Map<TraceNode, string>();
  readonly causes = new Set<TraceNode>();
}

/**
 * A trace as an outline an agent can read within `maxTokens`: one line per
 * call shown (op, status, latency, tokens, cost, short id), sibling calls of
 * one op folded into one line with counts and percentiles, values cut to
 * previews that carry a digest; the path to the failing call and the
 * slowest path are always there.
 *
 * @throws {OutlineBudgetError} when even the kept part does not fit.
 */
export function outlineTrace(calls: readonly Call[], options: OutlineOptions): TraceOutline {
  const roots = traceTree(calls);
  const top: TraceNode =
    roots.length === 1
      ? roots[0]!
      : // Several roots (calls whose parent was not recorded): one synthetic parent holds them.
        ({
          call: undefined,
          op: '(trace)',
          parent: undefined,
          children: roots,
          depth: -1,
          latencyMs: 0,
          size: calls.length + 1,
          errors: 0,
        } as unknown as TraceNode);
  const groupsOf = memoGroups();
  const header = headerLines(calls, roots, options);
  const state = new OutlineState();
  const causes = rootCauses(roots, PINNED_CAUSES);
  const slowest = slowestPath(roots.reduce((a, b) => (b.latencyMs > a.latencyMs ? b : a)));
  const keep = (path: TraceNode[], mark: string) => {
    const last = path.at(-1)!;
    if (!state.marks.has(last)) state.marks.set(last, mark);
    for (const node of path) state.pinned.add(node);
    for (const node of path.slice(0, -1)) state.revealed.add(node);
  };
  const build = (withCauses: number, withValues: boolean, withSlowest: boolean) => {
    state.revealed.clear();
    state.pinned.clear();
    state.picked.clear();
    state.values.clear();
    state.marks.clear();
    state.causes.clear();
    state.revealed.add(top);
    for (const cause of causes.slice(0, withCauses)) {
      keep(pathTo(cause), 'failing');
      state.causes.add(cause);
      if (withValues) state.values.add(cause);
    }
    if (withSlowest || causes.length === 0) keep(slowest, 'slowest');
    if (withValues) {
      for (const root of roots.slice(0, 1)) state.values.add(root);
      state.values.add(slowest.at(-1)!);
    }
  };
  // Most lines are the same from one try to the next: estimate each once.
  const lineTokens = new Map<string, number>();
  const estimate = (line: string) => {
    let tokens = lineTokens.get(line);
    if (tokens === undefined) {
      tokens = estimateTokens(line) + 1; // + the newline
      lineTokens.set(line, tokens);
    }
    return tokens;
  };
  const render = () => renderOutline(top, state, groupsOf, header, estimate);
  // The kept part, shrunk until it fits: fewer failing calls, no values, then the failing path alone.
  let fitted: Rendered | undefined;
  let smallest = Number.POSITIVE_INFINITY;
  for (const [withCauses, withValues, withSlowest] of [
    [PINNED_CAUSES, true, true],
    [1, true, true],
    [1, false, true],
    [1, false, false],
  ] as const) {
    build(withCauses, withValues, withSlowest);
    const rendered = render();
    smallest = Math.min(smallest, rendered.tokens);
    if (rendered.tokens <= options.maxTokens) {
      fitted = rendered;
      break;
    }
  }
  if (fitted === undefined) throw new OutlineBudgetError(options.maxTokens, smallest);
  // Grow breadth-first: shallow before deep, failing subtrees and slow calls first.
  const tried = new Set<string>();
  for (;;) {
    const next = fitted.candidates.find((c) => !tried.has(c.key));
    if (next === undefined) break;
    tried.add(next.key);
    next.apply(state);
    const rendered = render();
    if (rendered.tokens <= options.maxTokens) fitted = rendered;
    else next.undo(state);
  }
  return {
    text: fitted.text,
    estimatedTokens: fitted.tokens,
    shownCalls: fitted.shown,
    totalCalls: calls.length,
  };
}

function headerLines(calls: readonly Call[], roots: readonly TraceNode[], options: OutlineOptions): string[] {
  const errors = calls.filter((c) => c.status === 'error').length;
  const root = roots.length === 1 ? roots[0]!.call : undefined;
  const tokens = root ? totalTokensOf(root) : undefined;
  const figures = [
    `${compactCount(calls.length)} calls`,
    `${errors} ERR`,
    ...(root?.status === 'running'
      ? ['running']
      : roots.length === 1
        ? [compactMs(roots[0]!.latencyMs)]
        : []),
    ...(tokens === undefined ? [] : [`${compactCount(tokens)}tok`]),
  ].join(', ');
  return [
    `trace ${options.traceId} (project ${options.project}): ${figures}${compactUsd(root?.summary?.costUsd)}`,
    'Each line: op status latency tokens cost #id. "op xN" folds N sibling calls of one op; "(+N below)" hides descendants.',
    'get_call takes a #id with this trace_id; it returns a cut value "v:…" whole.',
    '',
  ];
}

interface Candidate {
  key: string;
  apply(state: OutlineState): void;
  undo(state: OutlineState): void;
}

interface Rendered {
  text: string;
  tokens: number;
  shown: number;
  candidates: Candidate[];
}

function renderOutline(
  top: TraceNode,
  state: OutlineState,
  groupsOf: (node: TraceNode) => Group[],
  header: readonly string[],
  estimate: (line: string) => number,
): Rendered {
  const lines = [...header];
  const frontier: { node: TraceNode; candidate: Candidate }[] = [];
  let shown = 0;
  const renderNode = (node: TraceNode, indent: string) => {
    shown++;
    const revealed = state.revealed.has(node);
    lines.push(
      `${indent}${callLine(node, state.marks.get(node), state.causes.has(node))}${revealed ? '' : hiddenBelow(node)}`,
    );
    if (state.values.has(node)) {
      lines.push(`${indent}  ${valueLine('in', node.call.inputs)}`);
      if (node.call.status === 'success') lines.push(`${indent}  ${valueLine('out', node.call.output)}`);
    }
    if (revealed) renderChildren(node, `${indent}  `);
    else if (node.children.length > 0) {
      frontier.push({
        node,
        candidate: {
          key: `reveal ${node.call.id}`,
          apply: (s) => s.revealed.add(node),
          undo: (s) => s.revealed.delete(node),
        },
      });
    }
  };
  const renderChildren = (node: TraceNode, indent: string) => {
    const groups = groupsOf(node);
    const shownGroups =
      groups.length <= MAX_GROUPS
        ? groups
        : [...groups]
            .sort((a, b) => rank(b, state) - rank(a, state))
            .slice(0, MAX_GROUPS)
            .sort((a, b) => a.members[0]!.call.startedAt - b.members[0]!.call.startedAt);
    for (const group of shownGroups) {
      if (group.members.length === 1 || state.expanded.has(group.key)) {
        for (const member of group.members) renderNode(member, indent);
        continue;
      }
      lines.push(`${indent}${groupLine(group.op, group.members)}`);
      for (const member of group.members) {
        if (state.pinned.has(member) || state.picked.has(member)) renderNode(member, `${indent}  `);
      }
      if (group.members.length > EXPANDABLE_GROUP) {
        // A large group shows its slowest members one by one, as the budget allows.
        group.bySlowest ??= [...group.members].sort((a, b) => b.latencyMs - a.latencyMs);
        const member = group.bySlowest.find((m) => !state.pinned.has(m) && !state.picked.has(m));
        if (member !== undefined) {
          frontier.push({
            node: member,
            candidate: {
              key: `pick ${member.call.id}`,
              apply: (s) => s.picked.add(member),
              undo: (s) => s.picked.delete(member),
            },
          });
        }
      } else {
        frontier.push({
          node: group.members[0]!,
          candidate: {
            key: `expand ${group.key}`,
            apply: (s) => s.expanded.add(group.key),
            undo: (s) => s.expanded.delete(group.key),
          },
        });
      }
    }
    if (shownGroups.length < groups.length) {
      const rest = groups.filter((g) => !shownGroups.includes(g));
      const calls = rest.reduce((sum, g) => sum + g.members.length, 0);
      lines.push(`${indent}… ${compactCount(calls)} more calls of ${rest.length} other ops`);
    }
  };
  if (top.call === undefined) renderChildren(top, '');
  else renderNode(top, '');
  lines.push(
    '',
    `${shown.toLocaleString('en-US')} of the calls have a line; search_calls and get_call read the rest.`,
  );
  const text = lines.join('\n');
  const candidates = frontier
    .sort(
      (a, b) =>
        a.node.depth - b.node.depth ||
        Number(b.node.errors > 0) - Number(a.node.errors > 0) ||
        b.node.latencyMs - a.node.latencyMs,
    )
    .map((f) => f.candidate);
  return { text, tokens: lines.reduce((sum, line) => sum + estimate(line), 0), shown, candidates };
}

/** Which groups to show first when a call has too many: those on a kept path, then failing, then slow. */
function rank(group: Group, state: OutlineState): number {
  const pinned = group.members.some((m) => state.pinned.has(m)) ? 1e15 : 0;
  const errors = group.members.reduce((sum, m) => sum + m.errors, 0);
  const latency = group.members.reduce((sum, m) => sum + m.latencyMs, 0);
  return pinned + Math.min(errors, 1e6) * 1e8 + Math.min(latency, 1e8 - 1);
}

/** A call's children grouped by op, groups in the order of their first call; computed once per call. */
function memoGroups(): (node: TraceNode) => Group[] {
  const memo = new Map<TraceNode, Group[]>();
  return (node) => {
    let groups = memo.get(node);
    if (groups === undefined) {
      const byOp = new Map<string, Group>();
      for (const child of node.children) {
        let group = byOp.get(child.op);
        if (group === undefined) {
          group = { key: `${node.call?.id ?? 'trace'} ${child.op}`, op: child.op, members: [] };
          byOp.set(child.op, group);
        }
        group.members.push(child);
      }
      groups = [...byOp.values()];
      memo.set(node, groups);
    }
    return groups;
  };
}
