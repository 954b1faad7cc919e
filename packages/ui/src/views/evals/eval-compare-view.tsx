import { useMemo, useState } from 'preact/hooks';
import { useApp, useLoad } from '../../hooks/index.js';
import { type Call, formatUsd, PREDICT_AND_SCORE_OP } from '../../api/index.js';
import { ErrorBox } from '../../components/index.js';
import {
  callTokens,
  compareRows,
  expectedOf,
  flattenScores,
  rowDirection,
  type SummaryDelta,
  summaryDeltas,
  runSummary,
  scoreIntervals,
  verdict,
  formatDelta,
  formatDuration,
  formatTime,
} from '../../model/index.js';
import { href } from '../../router/index.js';

function metricText(d: SummaryDelta, v: number | undefined): string {
  if (v === undefined) return '—';
  if (d.metric === 'pass rate') return `${(v * 100).toFixed(1)}%`;
  if (d.metric === 'ms') return formatDuration(v);
  if (d.metric === 'count') return String(v);
  return v.toFixed(3);
}

function deltaClass(d: SummaryDelta): string {
  if (d.delta === undefined || d.delta === 0) return 'delta-same';
  return d.delta > 0 === d.higherIsBetter ? 'delta-better' : 'delta-worse';
}

/** A row's input in one short line: the dataset row the runner passed, else all inputs. */
function inputPreview(call: Call | undefined): string {
  if (call === undefined) return '';
  const inputs = call.inputs as Record<string, unknown>;
  const row = inputs.row ?? inputs.example ?? inputs;
  const first = row && typeof row === 'object' ? Object.values(row).find((v) => typeof v === 'string') : row;
  const text = typeof first === 'string' ? first : JSON.stringify(row);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** A value in one short line: text as it is, anything else as JSON, cut at 120 characters. */
function valueText(value: unknown): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

function scoreText(scores: Map<string, number | boolean>, name: string): string {
  const v = scores.get(name);
  if (v === undefined) return '—';
  return typeof v === 'boolean' ? (v ? 'pass' : 'fail') : v.toFixed(3).replace(/\.?0+$/, '');
}

/** Cost and tokens of each run (its call's summary, which includes every row's), lower being better. */
function spendDeltas(a: Call, b: Call) {
  return [
    {
      name: 'cost',
      a: a.summary?.costUsd,
      b: b.summary?.costUsd,
      text: (v: number | undefined) => formatUsd(v) || '—',
      delta: (d: number) => `${d > 0 ? '+' : d < 0 ? '−' : '±'}${formatUsd(Math.abs(d))}`,
    },
    {
      name: 'tokens',
      a: callTokens(a),
      b: callTokens(b),
      text: (v: number | undefined) => (v === undefined ? '—' : v.toLocaleString('en-US')),
      delta: (d: number) => formatDelta(d, 0),
    },
  ];
}

/** Two evaluation runs side by side: summary deltas and the rows whose scores changed. */
export function EvalCompareView({ aId, bId }: { aId: string; bId: string }) {
  const { api, project } = useApp();
  const load = (id: string, signal: AbortSignal) =>
    Promise.all([
      api.readCall(project, id, signal),
      api.queryAllCalls(
        {
          project,
          parentId: id,
          opName: PREDICT_AND_SCORE_OP,
          sort: { field: 'startedAt', direction: 'asc' },
        },
        signal,
      ),
    ]);
  const runs = useLoad((signal) => Promise.all([load(aId, signal), load(bId, signal)]), [project, aId, bId]);
  const [showAll, setShowAll] = useState(false);
  const [lowerIsBetter, setLowerIsBetter] = useState<ReadonlySet<string>>(new Set());
  const toggleLower = (name: string) =>
    setLowerIsBetter((set) => {
      const next = new Set(set);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });
  const data = runs.data;
  const deltas = useMemo(
    () => (data ? summaryDeltas(runSummary(data[0][0]), runSummary(data[1][0])) : []),
    [data],
  );
  const rows = useMemo(() => (data ? compareRows(data[0][1], data[1][1]) : []), [data]);
  const intervals = useMemo(
    () => (data ? scoreIntervals(data[0][1], data[1][1], lowerIsBetter) : []),
    [data, lowerIsBetter],
  );
  const shown = showAll ? rows : rows.filter((r) => r.changed.length > 0);
  const scoreNames = useMemo(() => {
    const names = new Set<string>();
    for (const r of rows) {
      for (const side of [r.a, r.b])
        if (side) for (const n of flattenScores(side.result.scores).keys()) names.add(n);
    }
    return [...names];
  }, [rows]);

  const runHead = (label: string, call: Call) => {
    const s = runSummary(call);
    return (
      <div class="run-card" data-run={label}>
        <div class="run-label">{label}</div>
        <div>
          <strong>{s?.evaluation ?? call.displayName ?? call.opName}</strong> · {s?.model ?? '—'}
        </div>
        <div class="muted">
          {formatTime(call.startedAt)} ·{' '}
          <a href={href(project, ['trace', call.traceId], { call: call.id })}>open trace</a>
        </div>
      </div>
    );
  };
  const traceLink = (side: { call: Call } | undefined, label: string) =>
    side ? (
      <a href={href(project, ['trace', side.call.traceId], { call: side.call.id })} class="trace-link">
        {label}
      </a>
    ) : (
      '—'
    );

  return (
    <div class="view compare-view">
      <div class="view-head">
        <h1>
          <a href={href(project, ['evals'])}>Evaluations</a> / compare
        </h1>
      </div>
      {runs.error && <ErrorBox error={runs.error} retry={runs.reload} />}
      {!data ? (
        !runs.error && <div class="placeholder-panel tall" aria-busy="true" />
      ) : (
        <>
          <div class="run-cards">
            {runHead('A', data[0][0])}
            {runHead('B', data[1][0])}
          </div>
          <section class="detail-section">
            <h2>Summary</h2>
            <table class="data-table deltas-table">
              <thead>
                <tr>
                  <th>Metric</th>
                  <th class="col-num">A</th>
                  <th class="col-num">B</th>
                  <th class="col-num">Δ (B − A)</th>
                </tr>
              </thead>
              <tbody>
                {spendDeltas(data[0][0], data[1][0]).map((d) => (
                  <tr key={d.name} data-metric={d.name}>
                    <td>{d.name}</td>
                    <td class="col-num">{d.text(d.a)}</td>
                    <td class="col-num">{d.text(d.b)}</td>
                    <td
                      class={`col-num ${d.a === undefined || d.b === undefined || d.a === d.b ? 'delta-same' : d.b < d.a ? 'delta-better' : 'delta-worse'}`}
                    >
                      {d.a === undefined || d.b === undefined ? '—' : d.delta(d.b - d.a)}
                    </td>
                  </tr>
                ))}
                {deltas.map((d) => (
                  <tr key={d.name} data-metric={d.name}>
                    <td>
                      {d.name}{' '}
                      <span class="muted">{d.metric === 'count' || d.metric === 'ms' ? '' : d.metric}</span>
                    </td>
                    <td class="col-num">{metricText(d, d.a)}</td>
                    <td class="col-num">{metricText(d, d.b)}</td>
                    <td class={`col-num ${deltaClass(d)}`}>
                      {d.delta === undefined
                        ? '—'
                        : d.metric === 'pass rate'
                          ? `${formatDelta(d.delta * 100, 1)} pts`
                          : d.metric === 'ms'
                            ? `${formatDelta(d.delta, 0)} ms`
                            : formatDelta(d.delta)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section class="detail-section">
            <h2>
              Per scorer, B − A with its paired 95% interval{' '}
              <span class="muted">(each run's trials of a row averaged, then rows paired)</span>
            </h2>
            <table class="data-table intervals-table">
              <thead>
                <tr>
                  <th>Scorer</th>
                  <th class="col-num">Rows</th>
                  <th class="col-num">Mean A</th>
                  <th class="col-num">Mean B</th>
                  <th class="col-num">Δ (B − A)</th>
                  <th class="col-num">95% interval</th>
                  <th>Lower is better</th>
                </tr>
              </thead>
              <tbody>
                {intervals.map((c) => {
                  const lower = lowerIsBetter.has(c.score);
                  const v = verdict(c, lower);
                  return (
                    <tr key={c.score} data-scorer={c.score} data-verdict={v}>
                      <td>{c.score}</td>
                      <td class="col-num">{c.pairs}</td>
                      <td class="col-num">{c.meanA.toFixed(3)}</td>
                      <td class="col-num">{c.meanB.toFixed(3)}</td>
                      <td
                        class={`col-num ${v === 'better' ? 'delta-better' : v === 'worse' ? 'delta-worse' : 'delta-same'}`}
                      >
                        {formatDelta(c.meanDifference)}
                      </td>
                      <td class="col-num ci">
                        {c.ci95 === null ? '—' : `[${formatDelta(c.ci95.low)}, ${formatDelta(c.ci95.high)}]`}
                      </td>
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`Lower is better for ${c.score}`}
                          checked={lower}
                          onChange={() => toggleLower(c.score)}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
          <section class="detail-section">
            <div class="view-head">
              <h2>
                Rows {showAll ? '' : 'whose scores changed'}{' '}
                <span class="muted">
                  ({rows.filter((r) => r.changed.length > 0).length} of {rows.length} changed)
                </span>
              </h2>
              <label class="inline">
                <input type="checkbox" checked={showAll} onChange={() => setShowAll(!showAll)} /> show all
                rows
              </label>
            </div>
            <div class="table-wrap">
              <table class="data-table changed-rows">
                <thead>
                  <tr>
                    <th class="col-num">Row</th>
                    <th>Input</th>
                    <th>Expected</th>
                    <th>Output A</th>
                    <th>Output B</th>
                    {scoreNames.map((n) => (
                      <th key={n} class="col-num">
                        {n} A → B
                      </th>
                    ))}
                    <th class="col-link">Trace A</th>
                    <th class="col-link">Trace B</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.length === 0 && (
                    <tr class="empty-row">
                      <td colSpan={scoreNames.length + 7}>No row's scores changed between these runs.</td>
                    </tr>
                  )}
                  {shown.map((r) => {
                    const a = r.a ? flattenScores(r.a.result.scores) : new Map();
                    const b = r.b ? flattenScores(r.b.result.scores) : new Map();
                    return (
                      <tr
                        key={r.key}
                        class={`compare-row row-${rowDirection(r)}`}
                        data-row-index={r.rowIndex}
                        data-direction={rowDirection(r)}
                      >
                        {/* Rows are numbered from 1, as people count them; data-row-index keeps the dataset's index. */}
                        <td class="col-num">
                          {r.rowIndex + 1}
                          {r.trial > 0 ? ` · t${r.trial}` : ''}
                        </td>
                        <td class="col-input">{inputPreview(r.b?.call ?? r.a?.call)}</td>
                        <td class="col-output">{valueText(expectedOf(r.b?.call ?? r.a?.call))}</td>
                        <td class="col-output output-a">{r.a ? valueText(r.a.result.output) : '—'}</td>
                        <td class="col-output output-b">{r.b ? valueText(r.b.result.output) : '—'}</td>
                        {scoreNames.map((n) => (
                          <td key={n} class={`col-num${r.changed.includes(n) ? ' changed' : ''}`}>
                            {scoreText(a, n)} → {scoreText(b, n)}
                          </td>
                        ))}
                        <td class="col-link">{traceLink(r.a, 'A')}</td>
                        <td class="col-link">{traceLink(r.b, 'B')}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
    </div>
  );
}
