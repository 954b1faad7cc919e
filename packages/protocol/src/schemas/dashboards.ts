import { z } from 'zod';
import { projectName } from './names.js';
import { monitorRuleName } from './alerts.js';
import { timestampMs } from './common.js';
import { callFilter, metricGroupBy, metricMeasure } from './metrics.js';

/** How a panel's values read: counts, shares (0…1, shown as %), durations in ms, US dollars, tokens or scores. */
export const panelUnit = z.enum(['count', 'share', 'ms', 'usd', 'tokens', 'score']);
export type PanelUnit = z.infer<typeof panelUnit>;

/** One chart of a dashboard: the measures of a metrics query, optionally one line per group. */
export const dashboardPanel = z.strictObject({
  title: z.string().min(1).max(200),
  measures: z.array(metricMeasure).min(1).max(10),
  groupBy: metricGroupBy.optional(),
  filter: callFilter.optional(),
  unit: panelUnit.default('count'),
});
export type DashboardPanel = z.input<typeof dashboardPanel>;

/**
 * A custom dashboard, saved per project under its name (a new save of the
 * name replaces it): its panels, drawn by the web UI over the time range
 * picked there (`#/<project>/dashboards/<name>?range=7d`).
 */
export const dashboard = z.strictObject({
  project: projectName,
  name: monitorRuleName,
  description: z.string().max(2_000).optional(),
  panels: z.array(dashboardPanel).min(1).max(24),
});
export type Dashboard = z.input<typeof dashboard>;
export type DashboardParsed = z.output<typeof dashboard>;

/** A saved dashboard with when it was last saved. */
export const savedDashboard = dashboard.extend({ updatedAt: timestampMs });
export type SavedDashboard = z.output<typeof savedDashboard>;

export const dashboardListResponse = z.object({ dashboards: z.array(savedDashboard) });
export type DashboardListResponse = z.infer<typeof dashboardListResponse>;
