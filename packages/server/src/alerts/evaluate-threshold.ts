import type { AlertRuleParsed, AlertState } from '@weft/protocol';
import { thresholdMessage } from './alert-message.js';
import type { AlertRuntime, Finding } from './alert-runtime.js';

/**
 * The state a threshold alert is in for the window's value: critical past
 * `critical`, else warning past `warning` (inclusive), else ok; with no
 * value, what the no-data policy says.
 */
export function thresholdState(
  rule: AlertRuleParsed,
  runtime: AlertRuntime,
  value: number | null,
): AlertState {
  if (value === null) {
    if (rule.noData === 'ok') return 'ok';
    if (rule.noData === 'alert') return 'nodata';
    return runtime.state;
  }
  if (rule.mode.type !== 'threshold') return runtime.state;
  const { direction, warning, critical } = rule.mode;
  const past = (limit: number | undefined) =>
    limit !== undefined && (direction === 'above' ? value >= limit : value <= limit);
  if (past(critical)) return 'critical';
  if (past(warning)) return 'warning';
  return 'ok';
}

export function thresholdFinding(
  rule: AlertRuleParsed,
  runtime: AlertRuntime,
  value: number | null,
): Finding {
  const state = thresholdState(rule, runtime, value);
  return { state, value, message: thresholdMessage(rule, state, value) };
}
