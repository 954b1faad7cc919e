import { useState } from 'preact/hooks';
import { useApp, useIntervalRefresh, useLoad, useRowKeys } from '../../hooks/index.js';
import { EVALUATE_OP } from '../../api/index.js';
import { ErrorBox, Pager, StatusBadge } from '../../components/index.js';
import { runSummary, scoresLine, formatCount, formatTime } from '../../model/index.js';
import { href, navigate } from '../../router/index.js';

const PAGE_SIZE = 50;

/** Evaluation runs with their summaries; pick two to compare side by side. */
export function EvalsView() {
  const { api, project } = useApp();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const runs = useLoad(
    (signal) =>
      api.queryCalls(
        { project, opName: EVALUATE_OP, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) },
        signal,
      ),
    [project, cursor],
  );
  const rows = runs.data?.calls ?? [];
  useIntervalRefresh(
    rows.some((r) => r.status === 'running'),
    3_000,
    runs.reload,
    runs.settled,
  );
  const [picked, setPicked] = useState<string[]>([]);
  const togglePick = (id: string) =>
    setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-2)));
  const { rowProps } = useRowKeys(rows.length, (i) => {
    const run = rows[i];
    if (run) togglePick(run.id);
  });
  const compare = () => {
    // The older run is the baseline (A), the newer the candidate (B).
    const [x, y] = picked.map((id) => rows.find((r) => r.id === id)!);
    if (!x || !y) return;
    const [a, b] = x.startedAt <= y.startedAt ? [x, y] : [y, x];
    navigate(href(project, ['evals', 'compare', a.id, b.id]));
  };

  return (
    <div class="view evals-view">
      <div class="view-head">
        <h1>Evaluations</h1>
        <button type="button" class="button primary" disabled={picked.length !== 2} onClick={compare}>
          Compare {picked.length}/2 selected
        </button>
      </div>
      {runs.error && <ErrorBox error={runs.error} retry={runs.reload} />}
      <div class="table-wrap">
        <table class="data-table evals-table" aria-busy={runs.data === undefined}>
          <thead>
            <tr>
              <th class="col-pick">
                <span class="visually-hidden">Select</span>
              </th>
              <th>Evaluation</th>
              <th>Model</th>
              <th class="col-status">Status</th>
              <th class="col-num">Rows</th>
              <th class="col-num">Errors</th>
              <th>Scores</th>
              <th class="col-time">Started</th>
              <th class="col-link">Trace</th>
            </tr>
          </thead>
          <tbody>
            {runs.data === undefined &&
              !runs.error &&
              Array.from({ length: 6 }, (_, i) => (
                <tr key={i} class="placeholder-row">
                  <td colSpan={9}>
                    <span class="skeleton" />
                  </td>
                </tr>
              ))}
            {runs.data && rows.length === 0 && (
              <tr class="empty-row">
                <td colSpan={9}>No evaluation runs recorded in this project yet.</td>
              </tr>
            )}
            {rows.map((run, i) => {
              const s = runSummary(run);
              const checked = picked.includes(run.id);
              return (
                <tr
                  key={run.id}
                  class={`run-row${checked ? ' selected' : ''}`}
                  data-call-id={run.id}
                  {...rowProps(i)}
                >
                  <td class="col-pick">
                    <input
                      type="checkbox"
                      tabIndex={-1}
                      checked={checked}
                      aria-label={`Select run ${s?.evaluation ?? run.displayName ?? run.id}`}
                      onChange={() => togglePick(run.id)}
                    />
                  </td>
                  <td>{s?.evaluation ?? run.displayName ?? '—'}</td>
                  <td>{s?.model ?? '—'}</td>
                  <td class="col-status">
                    <StatusBadge status={run.status} />
                  </td>
                  <td class="col-num">
                    {s ? `${formatCount(s.completed)}/${formatCount(s.rows * s.trials)}` : '—'}
                  </td>
                  <td class="col-num">{s ? formatCount(s.errors) : '—'}</td>
                  <td class="scores-cell">{s ? scoresLine(s) : ''}</td>
                  <td class="col-time">{formatTime(run.startedAt)}</td>
                  <td class="col-link">
                    <a href={href(project, ['trace', run.traceId], { call: run.id })} tabIndex={-1}>
                      trace
                    </a>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager
        label={`Page ${cursors.length}`}
        hasPrevious={cursors.length > 1}
        hasNext={Boolean(runs.data?.nextCursor)}
        onPrevious={() => setCursors(cursors.slice(0, -1))}
        onNext={() => setCursors([...cursors, runs.data?.nextCursor ?? undefined])}
      />
    </div>
  );
}
