import type { AlertRuleParsed } from '@weft/protocol';
import { changeMessage, filterText } from './alert-message.js';
import { metricLabel, seriesKindOf, WINDOW_MS } from './alert-metric.js';
import type { AlertRuntime, Finding } from './alert-runtime.js';
import {
  baselineLevel,
  detectChange,
  detectorConfig,
  estimateBaseline,
  freshDetector,
  type Observation,
  runStart,
  standardize,
} from './change-detection/index.js';

/** A window is evaluated once it ended this long ago: calls still arriving for it have arrived. */
export const LATENESS_MS = 60_000;
/** Windows fed per evaluation at most: after a long pause the detector resumes with the newest. */
const MAX_NEW_WINDOWS = 200;
/** The baseline is estimated again at most this often. */
const BASELINE_REFRESH_MS = 3_600_000;
/** Fewest baseline windows with data before the detector starts. */
const MIN_BASELINE_WINDOWS = 50;
/** Consecutive windows within one baseline σ that end an alarm. */
const CALM_WINDOWS = 6;

/** Reads one value (and for rates errors and calls) per window of `[from, to)`. */
export type WindowReader = (from: number, to: number) => Promise<Observation[]>;

/**
 * Feeds the windows closed since the last evaluation to the rule's CUSUM
 * (see `detectChange`), in order. While an alarm is open, each window is
 * compared with the baseline the alarm was raised against: six windows in
 * a row within one σ of it end the alarm (back to baseline), and so does a
 * baseline's length of windows (the new level is then the baseline).
 * Returns the runtime to store and one finding per state change, in order
 * (or the state it stays in when nothing changed).
 */
export async function evaluateChange(
  rule: AlertRuleParsed,
  runtime: AlertRuntime,
  now: number,
  read: WindowReader,
  link: (from: number, to: number) => string,
): Promise<{ runtime: AlertRuntime; findings: Finding[] }> {
  if (rule.mode.type !== 'change') return { runtime, findings: [] };
  const mode = rule.mode;
  const width = WINDOW_MS[rule.window];
  const closed = Math.floor((now - LATENESS_MS) / width) * width;
  const first = Math.max(runtime.lastWindowEnd ?? closed - width, closed - MAX_NEW_WINDOWS * width);
  if (first >= closed) return { runtime, findings: [] };
  const kind = seriesKindOf(rule.metric);
  const config = detectorConfig({
    falseAlarmsPerMonth: mode.falseAlarmsPerMonth,
    windowMs: width,
    direction: mode.direction,
  });
  let next: AlertRuntime = { ...runtime, detector: runtime.detector ?? freshDetector() };
  if (
    next.baseline === undefined ||
    next.baselineAt === undefined ||
    now - next.baselineAt >= BASELINE_REFRESH_MS
  ) {
    // The baseline ends where the current run began: its windows would hide the change they measure.
    const end = Math.min(first, runStart(next.detector ?? freshDetector()) ?? first);
    const windows = await read(end - mode.baselineWindows * width, end);
    const baseline = estimateBaseline(kind, windows, MIN_BASELINE_WINDOWS);
    next = { ...next, baselineAt: now, ...(baseline === undefined ? {} : { baseline }) };
    if (baseline === undefined) delete next.baseline;
  }
  const findings: Finding[] = [];
  let state = next.state;
  let value = next.lastValue;
  for (const window of await read(first, closed)) {
    value = window.value;
    if (next.alarm !== undefined) {
      const alarm = { ...next.alarm, windows: next.alarm.windows + 1 };
      const z = standardize(alarm.baseline, window);
      const calm = z === null ? alarm.calm : (alarm.direction === 'up' ? z < 1 : z > -1) ? alarm.calm + 1 : 0;
      next = { ...next, alarm: { ...alarm, calm } };
      const back = calm >= CALM_WINDOWS;
      if (back || alarm.windows >= mode.baselineWindows) {
        const level = baselineLevel(alarm.baseline);
        const message = back
          ? `${metricLabel(rule.metric)} of ${filterText(rule.filter)} is back at its baseline (${Number(level.toPrecision(4))})`
          : `${metricLabel(rule.metric)} of ${filterText(rule.filter)} has kept its new level for a baseline's length: it is the baseline now`;
        const rest = { ...next };
        delete rest.alarm;
        delete rest.baseline;
        next = { ...rest, detector: freshDetector() };
        state = 'ok';
        findings.push({ state, value, message, callsUrl: link(alarm.since, window.at + width) });
      }
      continue;
    }
    const baseline = next.baseline;
    if (baseline === undefined) continue;
    const result = detectChange(next.detector ?? freshDetector(), window, baseline, config);
    next = { ...next, detector: result.state };
    if (result.alarm === undefined) continue;
    const alarm = result.alarm;
    state = mode.severity;
    next = {
      ...next,
      alarm: { direction: alarm.direction, since: alarm.since, at: alarm.at, baseline, windows: 0, calm: 0 },
    };
    findings.push({
      state,
      value,
      message: changeMessage(rule, alarm),
      change: {
        direction: alarm.direction,
        since: alarm.since,
        baseline: alarm.baseline,
        level: alarm.level,
        low: alarm.low,
        high: alarm.high,
      },
      callsUrl: link(alarm.since, window.at + width),
    });
  }
  next = { ...next, lastWindowEnd: closed };
  if (findings.length === 0) {
    const message =
      next.baseline === undefined
        ? `${metricLabel(rule.metric)} of ${filterText(rule.filter)}: learning its baseline (${MIN_BASELINE_WINDOWS} windows with data needed)`
        : `${metricLabel(rule.metric)} of ${filterText(rule.filter)}: no change`;
    findings.push({ state, value, message });
  }
  return { runtime: next, findings };
}
