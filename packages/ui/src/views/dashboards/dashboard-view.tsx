import { useMemo } from 'preact/hooks';
import { Page } from '../../components/index.js';
import { useApp, useLoad } from '../../hooks/index.js';
import { DASHBOARD_RANGES, DEFAULT_DASHBOARD_RANGE, defaultPanels } from '../../model/index.js';
import { href, navigate, type Route } from '../../router/index.js';
import { PanelCard, type PanelRange } from './panel-card.js';

/** Most evaluators whose recent scores name the Scores panel's lines. */
const MAX_EVALUATORS_READ = 10;

/**
 * The project's default dashboard: volume, errors, latency, time to first
 * token, cost and tokens by model, calls by op and scores over a time range
 * picked in the address (`?range=24h`). Every point opens its calls.
 */
export function DashboardView({ route }: { route: Route }) {
  const { api, project } = useApp();
  const rangeName = route.query.get('range') ?? DEFAULT_DASHBOARD_RANGE;
  const rangeMs = DASHBOARD_RANGES[rangeName] ?? (DASHBOARD_RANGES[DEFAULT_DASHBOARD_RANGE] as number);
  // Fixed when the range is picked (or the view reloaded), so every panel shows the same span.
  const range = useMemo<PanelRange>(() => {
    const to = Math.ceil((Date.now() + 1) / 60_000) * 60_000;
    return { from: to - rangeMs, to, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone };
  }, [rangeMs]);
  // The scores: what the project's online evaluators have recorded lately, and thumbs feedback.
  const scores = useLoad(
    async (signal) => {
      const { evaluators } = await api.listEvaluators(project, signal);
      const names = new Set<string>();
      for (const status of evaluators.slice(0, MAX_EVALUATORS_READ)) {
        const activity = await api.evaluatorActivity(project, status.rule.name, signal);
        for (const result of activity.results) for (const name of Object.keys(result.scores)) names.add(name);
      }
      return [...names].sort();
    },
    [project],
  );
  const panels = useMemo(() => defaultPanels(scores.data ?? []), [JSON.stringify(scores.data)]);
  const pick = (name: string) => navigate(href(project, ['dashboards'], { range: name }), true);
  return (
    <Page
      name="dashboard"
      title="Dashboard"
      actions={
        <fieldset class="range-picker" aria-label="Time range">
          {Object.keys(DASHBOARD_RANGES).map((name) => (
            <button
              key={name}
              type="button"
              class={`button${name === rangeName ? ' primary' : ''}`}
              aria-pressed={name === rangeName}
              onClick={() => pick(name)}
            >
              {name}
            </button>
          ))}
        </fieldset>
      }
    >
      <div class="panel-grid">
        {panels.map((panel) => (
          <PanelCard key={panel.id} panel={panel} range={range} />
        ))}
      </div>
    </Page>
  );
}
