import { type ApiClient, formatUsd } from '../../api/index.js';
import { useLoad } from '../../hooks/index.js';
import { formatCount } from '../../model/index.js';

const DAY_MS = 86_400_000;

/** Calls, errors and cost of a project over the last `windowMs`, from the server's metrics. */
async function windowStats(api: ApiClient, project: string, windowMs: number, signal: AbortSignal) {
  const to = Date.now() + 60_000;
  const from = to - windowMs;
  const [all, roots] = await Promise.all([
    api.queryMetrics({ project, from, to, bucket: 'total', measures: ['count', 'errors'] }, signal),
    // A root's cost includes its descendants': summed over roots, each dollar counts once.
    api.queryMetrics(
      { project, from, to, bucket: 'total', measures: ['cost'], filter: { parentId: null } },
      signal,
    ),
  ]);
  const value = (r: typeof all, measure: string) =>
    r.series.find((s) => s.measure === measure)?.values[0] ?? undefined;
  return { calls: value(all, 'count') ?? 0, errors: value(all, 'errors') ?? 0, cost: value(roots, 'cost') };
}

/** A project's activity over the last day and week: calls, errors, cost — cells of the project list. */
export function ProjectStats({ api, project }: { api: ApiClient; project: string }) {
  const stats = useLoad(
    async (signal) => {
      const [day, week] = await Promise.all([
        windowStats(api, project, DAY_MS, signal),
        windowStats(api, project, 7 * DAY_MS, signal),
      ]);
      return { day, week };
    },
    [api, project],
  );
  const cell = (text: string | undefined, name: string) => (
    <td class="col-num" data-stat={name}>
      {stats.error ? '—' : (text ?? '')}
    </td>
  );
  const { day, week } = stats.data ?? {};
  return (
    <>
      {cell(day && formatCount(day.calls), 'calls-day')}
      {cell(week && formatCount(week.calls), 'calls-week')}
      {cell(day && formatCount(day.errors), 'errors-day')}
      {cell(week && formatCount(week.errors), 'errors-week')}
      {cell(day && formatUsd(day.cost), 'cost-day')}
      {cell(week && formatUsd(week.cost), 'cost-week')}
    </>
  );
}
