import { z } from 'zod';
import { projectName } from './names.js';
import { timestampMs } from './common.js';
import { callFilter, metricMeasure } from './metrics.js';

/** A rule's name: its key within the project (letters, digits, `.`, `_`, `-`). */
export const monitorRuleName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
    'must be 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit',
  );

/** Width of the window an alert measures over (and, for change detection, of each point of its series). */
export const alertWindow = z.enum(['minute', '5m', '15m', 'hour', '6h', 'day']);
export type AlertWindow = z.infer<typeof alertWindow>;

/** A webhook an alert delivers to: plain JSON, or a body Slack's incoming webhooks accept. */
export const webhookChannel = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).max(2_048),
  format: z.enum(['json', 'slack']).default('json'),
});
export type WebhookChannel = z.input<typeof webhookChannel>;

/** Fires when the window's value passes a threshold: `warning` and/or `critical`, above or below. */
export const thresholdMode = z
  .strictObject({
    type: z.literal('threshold'),
    direction: z.enum(['above', 'below']).default('above'),
    warning: z.number().finite().optional(),
    critical: z.number().finite().optional(),
  })
  .refine((m) => m.warning !== undefined || m.critical !== undefined, 'set warning, critical or both');

/**
 * Fires when the metric moves by more than chance: a CUSUM on the
 * metric's windows against a baseline of the `baselineWindows` before, set
 * for at most `falseAlarmsPerMonth` false alarms a month on a series that
 * does not change (docs/monitoring.md has the math and measurements).
 */
export const changeMode = z.strictObject({
  type: z.literal('change'),
  direction: z.enum(['up', 'down', 'both']).default('both'),
  falseAlarmsPerMonth: z.number().min(0.01).max(30).default(1),
  baselineWindows: z.number().int().min(50).max(1_400).default(1_000),
  severity: z.enum(['warning', 'critical']).default('critical'),
});

/**
 * An alert rule: a metric of the calls the filter selects, over a window,
 * evaluated by the server on a schedule, delivered to webhooks when its
 * state changes (never again while a state holds). `noData`: what a window
 * without a value does — `ok` recovers, `keep` keeps the state, `alert`
 * goes to the `nodata` state. `mutedUntil`: until then, states are tracked
 * and recorded in the history but nothing is delivered.
 */
export const alertRule = z.strictObject({
  project: projectName,
  name: monitorRuleName,
  description: z.string().max(2_000).optional(),
  metric: metricMeasure,
  filter: callFilter.optional(),
  window: alertWindow.default('5m'),
  mode: z.discriminatedUnion('type', [thresholdMode, changeMode]),
  noData: z.enum(['ok', 'keep', 'alert']).default('keep'),
  channels: z.array(webhookChannel).max(10).default([]),
  mutedUntil: timestampMs.nullable().default(null),
  enabled: z.boolean().default(true),
});
export type AlertRule = z.input<typeof alertRule>;
export type AlertRuleParsed = z.output<typeof alertRule>;

export const alertState = z.enum(['ok', 'warning', 'critical', 'nodata']);
export type AlertState = z.infer<typeof alertState>;

/** A state change of an alert, as its history lists it and its webhooks receive it. */
export const alertEvent = z.object({
  rule: z.string(),
  project: z.string(),
  /** The new state; `ok` after another one is a recovery. */
  state: alertState,
  previous: alertState,
  at: timestampMs,
  /** The window's value (`null`: no data). */
  value: z.number().nullable(),
  /** One line a person reads: what, how much, since when. */
  message: z.string(),
  /** For change detection: what changed, with the new level's 95% interval. */
  change: z
    .object({
      direction: z.enum(['up', 'down']),
      since: timestampMs,
      baseline: z.number(),
      level: z.number(),
      low: z.number(),
      high: z.number(),
    })
    .optional(),
  /** The web UI's calls view, filtered to the calls behind it. */
  callsUrl: z.string().optional(),
  /** Whether the rule was muted, so the event was recorded but not delivered. */
  muted: z.boolean(),
});
export type AlertEvent = z.infer<typeof alertEvent>;

/** A rule with what the server knows of it now. */
export const alertStatus = z.object({
  rule: alertRule,
  state: alertState,
  since: timestampMs.nullable(),
  lastValue: z.number().nullable(),
  lastEvaluatedAt: timestampMs.nullable(),
  /** The last evaluation's error (a metric the server could not compute), if any. */
  error: z.string().nullable(),
});
export type AlertStatus = z.infer<typeof alertStatus>;

export const alertListResponse = z.object({ alerts: z.array(alertStatus) });
export const alertHistoryResponse = z.object({
  events: z.array(alertEvent),
  deliveries: z.array(
    z.object({
      at: timestampMs,
      url: z.string(),
      attempt: z.number().int(),
      /** `delivered`, `retrying` (with the next attempt's time) or `failed` (given up). */
      outcome: z.enum(['delivered', 'retrying', 'failed']),
      status: z.number().int().nullable(),
      error: z.string().nullable(),
      eventAt: timestampMs,
    }),
  ),
});
export type AlertHistoryResponse = z.infer<typeof alertHistoryResponse>;

/** Body of `routes.alertMute`: mute until a time, or `null` to unmute. */
export const alertMute = z.strictObject({
  project: projectName,
  name: monitorRuleName,
  until: timestampMs.nullable(),
});
