import type { VNode } from 'preact';
import type { Route } from '../router/index.js';
import { AlertView } from './alerts/alert-view.js';
import { AlertsView } from './alerts/alerts-view.js';
import { CallView } from './calls/call-view.js';
import { CallsView } from './calls/calls-view.js';
import { DashboardView } from './dashboards/dashboard-view.js';
import { DatasetsView } from './datasets/datasets-view.js';
import { TableView } from './datasets/table-view.js';
import { EvalCompareView } from './evals/eval-compare-view.js';
import { EvalsView } from './evals/evals-view.js';
import { EvaluatorView } from './evaluators/evaluator-view.js';
import { EvaluatorsView } from './evaluators/evaluators-view.js';
import { ObjectView } from './objects/object-view.js';
import { ObjectsView } from './objects/objects-view.js';
import { PlaygroundView } from './playground/playground-view.js';
import { SessionView } from './sessions/session-view.js';
import { SessionsView } from './sessions/sessions-view.js';
import { SettingsView } from './settings/settings-view.js';
import { TraceDiffView } from './traces/trace-diff-view.js';
import { TraceView } from './traces/trace-view.js';

/** Where a section sits in the navigation, top to bottom. */
export const SECTION_GROUPS = ['Observe', 'Build', 'Evaluate', 'Monitor', 'Project'] as const;
export type SectionGroup = (typeof SECTION_GROUPS)[number];

/**
 * One project-level section of the UI: a navigation entry and the views
 * under its address (`#/<project>/<id>/…`). Adding a page is adding a view
 * file in the section's folder and a line to its `render`; adding a section
 * is one entry in {@link SECTIONS}.
 */
export interface Section {
  /** First path segment of the section's addresses, and its key. */
  id: string;
  label: string;
  group: SectionGroup;
  /** Other first segments whose views belong here (`trace` → Traces), for the navigation's highlight. */
  aliases?: readonly string[];
  /**
   * The view for `segments` (the path after the project; `segments[0]` is
   * `id` or an alias), or `undefined` for an address the section does not
   * have (the shell shows "Not found"). Key views by what they show, so a
   * new address mounts a fresh view.
   */
  render(segments: readonly string[], route: Route): VNode | undefined;
}

export const SECTIONS: readonly Section[] = [
  {
    id: 'traces',
    label: 'Traces',
    group: 'Observe',
    aliases: ['trace'],
    render: ([view, id, sub, other], route) => {
      if (view === 'trace' && sub === 'diff' && id && other)
        return <TraceDiffView key={`${id}/${other}`} route={route} left={id} right={other} />;
      if (view === 'trace' && sub === undefined)
        return id ? <TraceView key={id} route={route} traceId={id} /> : undefined;
      return id ? undefined : <CallsView route={route} scope="roots" />;
    },
  },
  {
    id: 'calls',
    label: 'Calls',
    group: 'Observe',
    render: ([, id], route) => (id ? <CallView key={id} id={id} /> : <CallsView route={route} scope="all" />),
  },
  {
    id: 'sessions',
    label: 'Sessions',
    group: 'Observe',
    render: ([, id]) => (id ? <SessionView key={id} sessionId={id} /> : <SessionsView />),
  },
  {
    id: 'datasets',
    label: 'Datasets',
    group: 'Build',
    aliases: ['tables'],
    render: ([view, id]) => {
      if (view === 'tables') return id ? <TableView key={id} digest={id} /> : undefined;
      return id ? undefined : <DatasetsView />;
    },
  },
  {
    id: 'objects',
    label: 'Objects',
    group: 'Build',
    render: ([, id], route) => (id ? <ObjectView key={id} route={route} name={id} /> : <ObjectsView />),
  },
  {
    id: 'playground',
    label: 'Playground',
    group: 'Build',
    render: ([, extra], route) =>
      extra ? undefined : <PlaygroundView key={route.query.toString()} route={route} />,
  },
  {
    id: 'evals',
    label: 'Evaluations',
    group: 'Evaluate',
    render: ([, a, b, c]) => {
      if (a === 'compare' && b && c) return <EvalCompareView key={`${b}/${c}`} aId={b} bId={c} />;
      return a ? undefined : <EvalsView />;
    },
  },
  {
    id: 'dashboards',
    label: 'Dashboard',
    group: 'Monitor',
    render: ([, name, extra], route) =>
      extra ? undefined : <DashboardView key={name ?? ''} route={route} name={name} />,
  },
  {
    id: 'evaluators',
    label: 'Online evaluators',
    group: 'Monitor',
    render: ([, name]) => (name ? <EvaluatorView key={name} name={name} /> : <EvaluatorsView />),
  },
  {
    id: 'alerts',
    label: 'Alerts',
    group: 'Monitor',
    render: ([, name]) => (name ? <AlertView key={name} name={name} /> : <AlertsView />),
  },
  {
    id: 'settings',
    label: 'Settings',
    group: 'Project',
    render: ([, extra]) => (extra ? undefined : <SettingsView />),
  },
];

/** The section an address belongs to (the default, Traces, for a bare project). */
export function sectionOf(segments: readonly string[]): Section | undefined {
  const first = segments[0] ?? 'traces';
  return SECTIONS.find((s) => s.id === first || s.aliases?.includes(first));
}
