import { useMemo, useState } from 'preact/hooks';
import { ErrorBox, Page } from '../../components/index.js';
import { useApp, useLoad } from '../../hooks/index.js';
import {
  DASHBOARD_RANGES,
  DEFAULT_DASHBOARD_RANGE,
  defaultPanels,
  panelsOf,
  savedPanels,
} from '../../model/index.js';
import { href, navigate, type Route } from '../../router/index.js';
import { DashboardEditor } from './dashboard-editor.js';
import { PanelCard, type PanelRange } from './panel-card.js';

/** Most evaluators whose recent scores name the default dashboard's Scores lines. */
const MAX_EVALUATORS_READ = 10;

/**
 * A dashboard over a time range picked in the address (`?range=24h`): the
 * project's default one (volume, errors, latency, time to first token,
 * cost and tokens by model, calls by op, scores), or a custom one saved
 * under `name` (`#/<project>/dashboards/<name>`, a link to share). Every
 * point opens its calls; _Edit_ saves the panels as a custom dashboard.
 */
export function DashboardView({ route, name }: { route: Route; name: string | undefined }) {
  const { api, project } = useApp();
  const rangeName = route.query.get('range') ?? DEFAULT_DASHBOARD_RANGE;
  const rangeMs = DASHBOARD_RANGES[rangeName] ?? (DASHBOARD_RANGES[DEFAULT_DASHBOARD_RANGE] as number);
  // Fixed when the range is picked (or the view reloaded), so every panel shows the same span.
  const range = useMemo<PanelRange>(() => {
    const to = Math.ceil((Date.now() + 1) / 60_000) * 60_000;
    return { from: to - rangeMs, to, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone };
  }, [rangeMs]);
  const saved = useLoad((signal) => api.listDashboards(project, signal), [project]);
  // The default dashboard's scores: what the project's online evaluators have recorded lately.
  const scores = useLoad(
    async (signal) => {
      if (name !== undefined) return [];
      const { evaluators } = await api.listEvaluators(project, signal);
      const names = new Set<string>();
      for (const status of evaluators.slice(0, MAX_EVALUATORS_READ)) {
        const activity = await api.evaluatorActivity(project, status.rule.name, signal);
        for (const result of activity.results)
          for (const score of Object.keys(result.scores)) names.add(score);
      }
      return [...names].sort();
    },
    [project, name],
  );
  const custom = name === undefined ? undefined : saved.data?.dashboards.find((d) => d.name === name);
  const panels = useMemo(
    () =>
      custom !== undefined
        ? panelsOf(custom.panels)
        : name === undefined
          ? defaultPanels(scores.data ?? [])
          : [],
    [JSON.stringify(custom), name, JSON.stringify(scores.data)],
  );
  const [editing, setEditing] = useState(false);
  const go = (dashboard: string, rangeKey = rangeName) =>
    navigate(
      href(project, dashboard === '' ? ['dashboards'] : ['dashboards', dashboard], { range: rangeKey }),
      true,
    );
  const missing = name !== undefined && saved.data !== undefined && custom === undefined;
  return (
    <Page
      name="dashboard"
      title={name ?? 'Dashboard'}
      crumbs={name === undefined ? [] : [{ label: 'Dashboards', href: href(project, ['dashboards']) }]}
      actions={
        <div class="dashboard-actions">
          <label>
            <span class="visually-hidden">Dashboard</span>
            <select
              name="dashboard"
              value={name ?? ''}
              onChange={(e) => go((e.target as HTMLSelectElement).value)}
            >
              <option value="">Default dashboard</option>
              {(saved.data?.dashboards ?? []).map((d) => (
                <option key={d.name} value={d.name}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
          <fieldset class="range-picker" aria-label="Time range">
            {Object.keys(DASHBOARD_RANGES).map((key) => (
              <button
                key={key}
                type="button"
                class={`button${key === rangeName ? ' primary' : ''}`}
                aria-pressed={key === rangeName}
                onClick={() => go(name ?? '', key)}
              >
                {key}
              </button>
            ))}
          </fieldset>
          <button
            type="button"
            class="button"
            disabled={panels.length === 0}
            onClick={() => setEditing(true)}
          >
            Edit
          </button>
        </div>
      }
    >
      {saved.error && <ErrorBox error={saved.error} retry={saved.reload} />}
      {missing && (
        <p class="error-box" role="alert">
          No dashboard named “{name}” in this project: pick one above, or save one with <em>Edit</em>.
        </p>
      )}
      {custom?.description && <p class="muted">{custom.description}</p>}
      {editing && (
        <DashboardEditor
          name={name ?? 'my-dashboard'}
          panels={savedPanels(panels)}
          onClose={() => {
            setEditing(false);
            saved.reload();
          }}
        />
      )}
      <div class="panel-grid">
        {panels.map((panel) => (
          <PanelCard key={panel.id} panel={panel} range={range} />
        ))}
      </div>
    </Page>
  );
}
