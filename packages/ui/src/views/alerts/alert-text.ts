import type { AlertStatus } from '../../api/index.js';

type Rule = AlertStatus['rule'];

/** The metric an alert watches: `latency.p95`, or `mean of <score>` for feedback. */
export function metricText(metric: Rule['metric']): string {
  return typeof metric === 'string' ? metric : `${metric.stat ?? 'mean'} of ${metric.feedback}`;
}

/** When it fires: `above 0.05 (warning) / 0.1 (critical)`, or a change with its false-alarm rate. */
export function modeText(mode: Rule['mode']): string {
  if (mode.type === 'change') {
    return `change ${mode.direction ?? 'both'} ways, ≤ ${mode.falseAlarmsPerMonth ?? 1} false alarm/month`;
  }
  const levels = [
    mode.warning === undefined ? undefined : `${mode.warning} (warning)`,
    mode.critical === undefined ? undefined : `${mode.critical} (critical)`,
  ].filter((x) => x !== undefined);
  return `${mode.direction ?? 'above'} ${levels.join(' / ')}`;
}

/** Whether the alert is muted now. */
export function mutedNow(rule: Rule, nowMs: number): boolean {
  return rule.mutedUntil !== null && rule.mutedUntil !== undefined && rule.mutedUntil > nowMs;
}
