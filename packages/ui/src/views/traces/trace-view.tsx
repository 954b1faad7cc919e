import { useMemo, useState } from 'preact/hooks';
import { useApp, useIntervalRefresh, useLoad } from '../../hooks/index.js';
import { CallDetail, ErrorBox, TraceTreeView } from '../../components/index.js';
import { type Call, callsOfTraceColumns, formatUsd } from '../../api/index.js';
import { ancestorIds, buildTraceTree, costTitle, formatCount, traceTotals } from '../../model/index.js';
import { href, navigate, type Route } from '../../router/index.js';

/** One trace: its call tree and waterfall, with the selected call's detail beside it. */
export function TraceView({ route, traceId }: { route: Route; traceId: string }) {
  const { api, project } = useApp();
  // The whole trace in one read, light (no inputs, outputs or feedback) and
  // columnar (shared values once): a trace of 25,000 calls is one request of
  // a few MB; the selected call's values are read when it is shown
  // (`SelectedCall`).
  const trace = useLoad(
    async (signal) => {
      const columns = await api.traceColumns(project, traceId, signal);
      return { calls: callsOfTraceColumns<Call>(columns), truncated: columns.truncated };
    },
    [project, traceId],
  );
  const calls = { ...trace, data: trace.data?.calls };
  const shown = calls.data ?? NO_CALLS;
  const nowMs = useMemo(() => Date.now(), [shown]);
  const tree = useMemo(() => buildTraceTree(shown, nowMs), [shown, nowMs]);
  const totals = useMemo(() => traceTotals(tree), [tree]);
  const running = useMemo(() => (calls.data ?? []).some((c) => c.status === 'running'), [calls.data]);
  useIntervalRefresh(running, 3_000, calls.reload, calls.settled);

  const selectedId = route.query.get('call') ?? tree.roots[0]?.call.id;
  // Roots start open; the selected call's ancestors are opened so it shows.
  const [toggled, setToggled] = useState<Map<string, boolean>>(new Map());
  const expanded = useMemo(() => {
    const set = new Set<string>(tree.roots.map((n) => n.call.id));
    if (selectedId !== undefined) for (const id of ancestorIds(tree, selectedId)) set.add(id);
    for (const [id, open] of toggled) {
      if (open) set.add(id);
      else set.delete(id);
    }
    return set;
  }, [tree, toggled, selectedId]);

  const select = (id: string) => navigate(href(project, ['trace', traceId], { call: id }), true);
  const toggle = (id: string, open: boolean) => setToggled((m) => new Map(m).set(id, open));
  const setAll = (open: boolean) => {
    const all = new Map<string, boolean>();
    for (const node of tree.byId.values()) if (node.children.length > 0) all.set(node.call.id, open);
    setToggled(all);
  };
  const selected = selectedId === undefined ? undefined : tree.byId.get(selectedId)?.call;
  // The trace's total is its root's cost: a summary's costUsd already holds every descendant's.
  const root = tree.byId.get(traceId)?.call ?? tree.roots[0]?.call;
  const totalCostUsd = root?.summary?.costUsd;
  // A replay or fork (`weft.replay.of` on its root) links to its comparison with the original.
  const replayOf = root?.attributes['weft.replay.of'];

  return (
    <div class="view trace-view">
      <div class="view-head">
        <h1>Trace</h1>
        <code class="muted">{traceId}</code>
        {totalCostUsd !== undefined && (
          <span class="trace-cost" title={costTitle(totalCostUsd)}>
            Cost <strong>{formatUsd(totalCostUsd)}</strong>
          </span>
        )}
        {totals.tokens > 0 && (
          <span class="trace-tokens" data-total="tokens">
            <strong>{formatCount(totals.tokens)}</strong> tokens · {formatCount(totals.modelCalls)} model call
            {totals.modelCalls === 1 ? '' : 's'}
          </span>
        )}
        {typeof replayOf === 'string' && (
          <a class="button small" href={href(project, ['trace', replayOf, 'diff', traceId])}>
            Compare with original
          </a>
        )}
        <button type="button" class="button small" disabled={!calls.data} onClick={() => setAll(true)}>
          Expand all
        </button>
        <button type="button" class="button small" disabled={!calls.data} onClick={() => setAll(false)}>
          Collapse all
        </button>
        <span class="live-indicator" aria-live="polite">
          {calls.data === undefined && !calls.error
            ? 'Loading…'
            : `${formatCount(tree.byId.size)} calls${running ? ' · live' : ''}`}
        </span>
      </div>
      {calls.error && <ErrorBox error={calls.error} retry={calls.reload} />}
      {trace.data?.truncated && (
        <p class="muted" role="status">
          This trace holds more calls than one view shows: the first {formatCount(shown.length)} by start time
          are drawn. Find the others in the calls table, filtered by this trace.
        </p>
      )}
      <div class="split">
        <div class="split-main">
          {calls.data === undefined ? (
            <div class="trace-tree placeholder-panel" aria-busy="true" />
          ) : tree.byId.size === 0 ? (
            <p class="empty">No calls in this trace (yet).</p>
          ) : (
            <TraceTreeView
              tree={tree}
              expanded={expanded}
              selectedId={selectedId}
              nowMs={nowMs}
              onSelect={select}
              onToggle={toggle}
            />
          )}
        </div>
        <aside class="split-side" aria-label="Selected call">
          {selected ? <SelectedCall key={selected.id} light={selected} /> : <div class="placeholder-panel" />}
        </aside>
      </div>
    </div>
  );
}

const NO_CALLS: readonly Call[] = [];

/**
 * The selected call's detail: the trace's light call read again whole (its
 * inputs, output and feedback), and again when its status or end changes
 * (a running call ending while the trace refreshes).
 */
function SelectedCall({ light }: { light: Call }) {
  const { api, project } = useApp();
  const full = useLoad(
    (signal) => api.readCall(project, light.id, signal),
    [project, light.id, light.status, light.endedAt],
  );
  if (full.error) return <ErrorBox error={full.error} retry={full.reload} />;
  if (full.data === undefined) return <div class="placeholder-panel" aria-busy="true" />;
  return <CallDetail call={full.data} showTraceLink={false} />;
}
