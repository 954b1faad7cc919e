import { useMemo } from 'preact/hooks';
import { callsViewHash } from '../../api/index.js';
import { type ChartData, ErrorBox, TimeChart } from '../../components/index.js';
import { useApp, useLoad } from '../../hooks/index.js';
import { type DashboardPanel, formatPanelValue, pointLink, seriesLabel } from '../../model/index.js';
import { navigate } from '../../router/index.js';

/** The dashboard's time range: `[from, to)` in epoch ms, and the browser's time zone for the buckets. */
export interface PanelRange {
  from: number;
  to: number;
  timeZone: string;
}

/**
 * One panel: its metrics query over the range, drawn as a chart; a click
 * on a point opens the calls behind it (the bucket's range, the panel's
 * filters and the line's group).
 */
export function PanelCard({ panel, range }: { panel: DashboardPanel; range: PanelRange }) {
  const { api, project } = useApp();
  const metrics = useLoad(
    (signal) =>
      api.queryMetrics(
        {
          project,
          from: range.from,
          to: range.to,
          timeZone: range.timeZone,
          bucket: 'auto',
          measures: panel.measures,
          ...(panel.groupBy === undefined ? {} : { groupBy: panel.groupBy, maxGroups: 8 }),
          ...(panel.filter === undefined ? {} : { filter: panel.filter }),
        },
        signal,
      ),
    [project, range.from, range.to, range.timeZone, JSON.stringify(panel)],
  );
  const answer = metrics.data;
  const data = useMemo<ChartData | undefined>(
    () =>
      answer === undefined
        ? undefined
        : {
            xs: answer.buckets,
            series: answer.series.map((s) => ({ label: seriesLabel(s, panel), values: s.values })),
            format: (value) => formatPanelValue(panel.unit, value),
          },
    [answer],
  );
  const empty = answer?.series.every((s) => s.values.every((v) => v === null || v === 0)) === true;
  const open = (bucket: number, line: number) => {
    if (answer === undefined) return;
    const from = answer.buckets[bucket];
    if (from === undefined) return;
    const to = answer.buckets[bucket + 1] ?? answer.to;
    const group = answer.series[line]?.group ?? null;
    navigate(callsViewHash(pointLink(project, panel, group, from, to)));
  };
  return (
    <section class="panel-card" data-panel={panel.id} aria-busy={answer === undefined}>
      <h2>{panel.title}</h2>
      {metrics.error && <ErrorBox error={metrics.error} retry={metrics.reload} />}
      {data === undefined ? (
        !metrics.error && <div class="skeleton panel-skeleton" />
      ) : empty ? (
        <p class="muted panel-empty">No data in this range.</p>
      ) : (
        <TimeChart
          label={`${panel.title} over time, one point per ${answer?.bucket}`}
          data={data}
          onPick={open}
        />
      )}
    </section>
  );
}
