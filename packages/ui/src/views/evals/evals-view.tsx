import { useState } from 'preact/hooks';
import { useApp, useIntervalRefresh, useLoad, useRowKeys } from '../../hooks/index.js';
import { EVALUATE_OP } from '../../api/index.js';
import { ErrorBox, Pager, StatusBadge, TableState, TimeAgo } from '../../components/index.js';
import { formatCount, runInfo, scoresLine, shortId } from '../../model/index.js';
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
  const infos = new Map(rows.map((r) => [r.id, runInfo(r)]));
  // Each resuming run links back to the runs it resumed (those on this page).
  const resumed = new Map<string, string[]>();
  for (const [id, info] of infos) {
    if (info.resumedBy !== undefined)
      resumed.set(info.resumedBy, [...(resumed.get(info.resumedBy) ?? []), id]);
  }
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
  // The run's own call page: its summary or exception, and a link to its trace.
  const runHref = (id: string) => href(project, ['calls', id]);
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
            <TableState
              loading={runs.data === undefined && !runs.error}
              empty={rows.length === 0}
              columns={9}
            >
              No evaluation runs recorded in this project yet.
            </TableState>
            {rows.map((run, i) => {
              const info = infos.get(run.id)!;
              const s = info.summary;
              const checked = picked.includes(run.id);
              const name = info.evaluation ?? run.id;
              return (
                <tr
                  key={run.id}
                  class={`run-row${checked ? ' selected' : ''}`}
                  data-call-id={run.id}
                  data-state={info.state}
                  {...rowProps(i)}
                >
                  <td class="col-pick">
                    <input
                      type="checkbox"
                      tabIndex={-1}
                      checked={checked}
                      aria-label={`Select run ${name}`}
                      onChange={() => togglePick(run.id)}
                    />
                  </td>
                  <td class="run-name">{info.evaluation ?? '—'}</td>
                  <td class="run-model">{info.model ?? '—'}</td>
                  <td class="col-status">
                    {info.state === 'interrupted' ? (
                      <span class="status status-error">interrupted</span>
                    ) : (
                      <StatusBadge status={run.status} />
                    )}
                  </td>
                  <td class="col-num">
                    {s ? `${formatCount(s.completed)}/${formatCount(s.rows * s.trials)}` : '—'}
                  </td>
                  <td class="col-num">{s ? formatCount(s.errors) : '—'}</td>
                  <td class="scores-cell">
                    {s ? scoresLine(s) : ''}
                    {info.resumedBy !== undefined && (
                      <a class="resumed-by" href={runHref(info.resumedBy)} tabIndex={-1}>
                        resumed by run {shortId(info.resumedBy)}
                      </a>
                    )}
                    {(resumed.get(run.id) ?? []).map((from) => (
                      <a key={from} class="resumes" href={runHref(from)} tabIndex={-1}>
                        resumes interrupted run {shortId(from)}
                      </a>
                    ))}
                  </td>
                  <td class="col-time">
                    <TimeAgo ms={run.startedAt} />
                  </td>
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
