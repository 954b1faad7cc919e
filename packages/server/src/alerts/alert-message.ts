import { type AlertRuleParsed, type AlertState, callsViewHash, type CallFilterParsed } from '@weft/protocol';
import type { ChangeAlarm } from './change-detection/index.js';
import { formatMetric, metricLabel } from './alert-metric.js';

/** The filter in a few words: `op chat, status error`. */
export function filterText(filter: CallFilterParsed | undefined): string {
  if (filter === undefined) return 'all calls';
  const parts: string[] = [];
  if (filter.parentId === null) parts.push('root calls');
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'parentId' || value === undefined) continue;
    parts.push(`${key} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  }
  return parts.length === 0 ? 'all calls' : parts.join(', ');
}

/** A threshold alert's line: `latency.p95 of root calls is 1,240 ms over the last 5m (critical ≥ 1,000 ms)`. */
export function thresholdMessage(rule: AlertRuleParsed, state: AlertState, value: number | null): string {
  const what = `${metricLabel(rule.metric)} of ${filterText(rule.filter)}`;
  if (value === null) return `${what}: no data over the last ${rule.window}`;
  const shown = formatMetric(rule.metric, value);
  if (rule.mode.type !== 'threshold') return `${what} is ${shown}`;
  const sign = rule.mode.direction === 'above' ? '≥' : '≤';
  const limit =
    state === 'critical' ? rule.mode.critical : state === 'warning' ? rule.mode.warning : undefined;
  const bound =
    limit === undefined
      ? 'back within its thresholds'
      : `${state} ${sign} ${formatMetric(rule.metric, limit)}`;
  return `${what} is ${shown} over the last ${rule.window} (${bound})`;
}

/**
 * A change alarm's line: what changed, by how much, with an interval:
 * `latency.p95 of op chat rose 52% (95% interval +38% to +66%): 820 ms → 1,250 ms since 14:05 UTC`.
 */
export function changeMessage(rule: AlertRuleParsed, alarm: ChangeAlarm): string {
  const what = `${metricLabel(rule.metric)} of ${filterText(rule.filter)}`;
  const verb = alarm.direction === 'up' ? 'rose' : 'fell';
  const since = new Date(alarm.since).toISOString().slice(0, 16).replace('T', ' ');
  const levels = `${formatMetric(rule.metric, alarm.baseline)} → ${formatMetric(rule.metric, alarm.level)}`;
  if (alarm.baseline === 0)
    return `${what} ${verb} from 0 to ${formatMetric(rule.metric, alarm.level)} since ${since} UTC`;
  const pct = (value: number) =>
    `${value >= alarm.baseline ? '+' : ''}${Math.round((value / alarm.baseline - 1) * 100)}%`;
  return `${what} ${verb} ${pct(alarm.level).replace(/^[+-]/, '')} (95% interval ${pct(alarm.low)} to ${pct(alarm.high)}): ${levels} since ${since} UTC`;
}

/** The calls view link of a rule's calls in `[from, to)`. */
export function callsLink(publicUrl: string, rule: AlertRuleParsed, from: number, to: number): string {
  const filter = rule.filter ?? {};
  const attributes: Record<string, string | number | boolean> = { ...(filter.attributes ?? {}) };
  if (filter.userId !== undefined) attributes['user.id'] = filter.userId;
  const tag = Array.isArray(filter.tag) ? filter.tag[0] : filter.tag;
  if (tag !== undefined) attributes.tags = tag;
  const op = Array.isArray(filter.opName) ? filter.opName[0] : filter.opName;
  const status = Array.isArray(filter.status) ? filter.status[0] : filter.status;
  const hash = callsViewHash({
    project: rule.project,
    roots: filter.parentId === null,
    ...(op === undefined ? {} : { op }),
    ...(status === undefined ? {} : { status }),
    ...(Object.keys(attributes).length === 0 ? {} : { attributes }),
    ...(filter.sessionId === undefined ? {} : { session: filter.sessionId }),
    from,
    to,
  });
  return `${publicUrl.replace(/\/+$/, '')}/${hash}`;
}
