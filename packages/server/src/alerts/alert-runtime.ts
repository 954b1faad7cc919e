import type { AlertEvent, AlertRuleParsed, AlertState } from '@weft/protocol';
import type { Baseline, DetectorState } from './change-detection/index.js';

/** A change alarm being watched for its end: what it compared with, and how many windows since look normal. */
export interface OpenAlarm {
  direction: 'up' | 'down';
  since: number;
  at: number;
  baseline: Baseline;
  /** Windows since the alarm, and consecutive ones back at the baseline. */
  windows: number;
  calm: number;
}

/** What the server keeps of an alert between evaluations (document `alert-runtime`). */
export interface AlertRuntime {
  state: AlertState;
  since: number | null;
  /** The last state delivered to the webhooks: a state is delivered once while it holds. */
  notified: AlertState;
  lastValue: number | null;
  lastEvaluatedAt: number | null;
  error: string | null;
  /** Change detection: the CUSUM, its baseline (estimated at `baselineAt`), the last window fed, the open alarm. */
  detector?: DetectorState;
  baseline?: Baseline;
  baselineAt?: number;
  lastWindowEnd?: number;
  alarm?: OpenAlarm;
}

export function initialRuntime(): AlertRuntime {
  return { state: 'ok', since: null, notified: 'ok', lastValue: null, lastEvaluatedAt: null, error: null };
}

/** What one evaluation found. */
export interface Finding {
  state: AlertState;
  value: number | null;
  message: string;
  change?: AlertEvent['change'];
  callsUrl?: string;
}

/**
 * The one rule of notification: an event is recorded when the state
 * changes, and delivered when the state differs from the last one
 * delivered and the rule is not muted. So a state that holds is never
 * delivered twice, a recovery is delivered once, and what changed during a
 * mute is delivered when it ends (if it still holds).
 */
export function transition(
  rule: AlertRuleParsed,
  runtime: AlertRuntime,
  finding: Finding,
  now: number,
): { runtime: AlertRuntime; event: AlertEvent | undefined; deliver: boolean } {
  const muted = rule.mutedUntil !== null && now < rule.mutedUntil;
  const changed = finding.state !== runtime.state;
  const deliver = !muted && finding.state !== runtime.notified;
  const next: AlertRuntime = {
    ...runtime,
    state: finding.state,
    since: changed ? now : runtime.since,
    notified: deliver ? finding.state : runtime.notified,
    lastValue: finding.value,
    lastEvaluatedAt: now,
    error: null,
  };
  if (!changed && !deliver) return { runtime: next, event: undefined, deliver: false };
  const event: AlertEvent = {
    rule: rule.name,
    project: rule.project,
    state: finding.state,
    // A delivery after a mute tells what the receivers last heard.
    previous: changed ? runtime.state : runtime.notified,
    at: now,
    value: finding.value,
    message: finding.message,
    muted,
    ...(finding.change === undefined ? {} : { change: finding.change }),
    ...(finding.callsUrl === undefined ? {} : { callsUrl: finding.callsUrl }),
  };
  return { runtime: next, event, deliver };
}
