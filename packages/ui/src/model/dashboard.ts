import {
  type CallFilter,
  type CallsViewLink,
  formatUsd,
  type MetricGroupBy,
  type MetricMeasure,
  type MetricSeries,
  type PanelUnit,
  type SavedPanel,
} from '../api/index.js';
import { formatCount, formatDuration } from './format.js';

/** One chart of a dashboard: measures of the calls `filter` selects, optionally one line per group. */
export interface DashboardPanel {
  id: string;
  title: string;
  measures: MetricMeasure[];
  groupBy?: MetricGroupBy;
  filter?: CallFilter;
  unit: PanelUnit;
}

/** The time ranges the dashboard offers, in ms back from now; `24h` when the address names none. */
export const DASHBOARD_RANGES: Readonly<Record<string, number>> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};
export const DEFAULT_DASHBOARD_RANGE = '24h';

/** Most scores the default dashboard's Scores panel draws (one line each). */
const MAX_SCORE_LINES = 6;

/**
 * The default dashboard of a project: volume, errors, latency percentiles,
 * time to first token, cost and tokens by model, calls by op, and the mean
 * of each score `scoreNames` lists (feedback and online evaluators' scores).
 * Tokens and cost sum root calls only (a call's usage includes its
 * descendants'), so each token counts once.
 */
export function defaultPanels(scoreNames: readonly string[]): DashboardPanel[] {
  const roots: CallFilter = { parentId: null };
  const panels: DashboardPanel[] = [
    { id: 'volume', title: 'Traces', measures: ['count'], filter: roots, unit: 'count' },
    { id: 'errors', title: 'Error rate', measures: ['errorRate'], unit: 'share' },
    {
      id: 'latency',
      title: 'Latency (traces)',
      measures: ['latency.p50', 'latency.p95', 'latency.p99'],
      filter: roots,
      unit: 'ms',
    },
    { id: 'ttft', title: 'Time to first token', measures: ['ttft.p50', 'ttft.p95'], unit: 'ms' },
    { id: 'cost', title: 'Cost by model', measures: ['cost'], groupBy: 'model', filter: roots, unit: 'usd' },
    {
      id: 'tokens',
      title: 'Tokens by model',
      measures: ['tokens.total'],
      groupBy: 'model',
      filter: roots,
      unit: 'tokens',
    },
    { id: 'ops', title: 'Calls by op', measures: ['count'], groupBy: 'op', unit: 'count' },
  ];
  if (scoreNames.length > 0) {
    panels.push({
      id: 'scores',
      title: 'Scores (mean)',
      measures: scoreNames.slice(0, MAX_SCORE_LINES).map((feedback) => ({ feedback, stat: 'mean' })),
      unit: 'score',
    });
  }
  return panels;
}

/** A saved dashboard's panels as the view draws them (each keyed by its place). */
export function panelsOf(saved: readonly SavedPanel[]): DashboardPanel[] {
  return saved.map((panel, i) => ({ ...panel, id: `panel-${i}`, unit: panel.unit ?? 'count' }));
}

/** Panels as a saved dashboard holds them (the editor's JSON): without the view's keys. */
export function savedPanels(panels: readonly DashboardPanel[]): SavedPanel[] {
  return panels.map(({ id: _, ...panel }) => panel);
}

/** A line's legend label: the group, the measure, or both when a panel has several of each. */
export function seriesLabel(series: MetricSeries, panel: DashboardPanel): string {
  const measure = series.measure.replace(/^feedback:(.*):mean$/, '$1');
  if (series.group === null) return measure;
  return panel.measures.length > 1 ? `${series.group} · ${measure}` : series.group || '(none)';
}

/**
 * The calls behind one point of a panel: the bucket's time range `[from,
 * to)`, the panel's op and status filters, and the line's group where the
 * calls view can filter by it (an op, a `version` attribute); a model, user,
 * tag or session group links to the bucket's calls at large.
 */
export function pointLink(
  project: string,
  panel: DashboardPanel,
  group: string | null,
  from: number,
  to: number,
): CallsViewLink {
  const link: CallsViewLink = { project, roots: panel.filter?.parentId === null, from, to };
  const op = panel.filter?.opName;
  if (typeof op === 'string') link.op = op;
  if (panel.measures.includes('errorRate') || panel.measures.includes('errors')) link.status = 'error';
  if (group !== null && panel.groupBy === 'op') link.op = group;
  if (group !== null && panel.groupBy === 'version') link.attributes = { version: group };
  return link;
}

/** A panel's value as its axis and legend show it; "—" for no value. */
export function formatPanelValue(unit: PanelUnit, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  switch (unit) {
    case 'share':
      return `${(value * 100).toFixed(1)}%`;
    case 'ms':
      return formatDuration(value);
    case 'usd':
      return formatUsd(value) || '$0';
    case 'score':
      return value.toFixed(2);
    default:
      return formatCount(Math.round(value));
  }
}
