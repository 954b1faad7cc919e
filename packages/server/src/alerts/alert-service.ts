import {
  type AlertEvent,
  type AlertHistoryResponse,
  type AlertRule,
  type AlertRuleParsed,
  type AlertStatus,
  alertRule,
  type MetricMeasure,
  type MetricsQueryResponse,
  metricsQuery,
} from '@weft/protocol';
import { runMetricsQuery } from '../metrics/index.js';
import type { StateDocument, Storage } from '../storage/index.js';
import { DELIVERY_LOG, type DeliveryLogEntry, type DeliveryQueue } from '../webhooks/index.js';
import { callsLink } from './alert-message.js';
import { seriesKindOf, WINDOW_BUCKET, WINDOW_MS } from './alert-metric.js';
import { type AlertRuntime, type Finding, initialRuntime, transition } from './alert-runtime.js';
import type { Observation } from './change-detection/index.js';
import { evaluateChange } from './evaluate-change.js';
import { thresholdFinding } from './evaluate-threshold.js';

const RULE = 'alert-rule';
const RUNTIME = 'alert-runtime';
const EVENTS = 'alert-event';

export interface AlertServiceOptions {
  storage: Storage;
  deliveries: DeliveryQueue;
  /** How often a threshold alert is evaluated. */
  everyMs: number;
  /** Base of the links in messages (the server's address as people open it). */
  publicUrl: () => string;
}

/**
 * Alert rules, their evaluation and history. Rules and their runtime state
 * are monitoring documents; evaluation reads metrics (rollups), applies the
 * threshold or the change detector, and hands events to the delivery
 * queue. A rule whose metric cannot be computed records the error in its
 * state and stays scheduled; it never stops the others.
 */
export class AlertService {
  readonly #o: AlertServiceOptions;

  constructor(options: AlertServiceOptions) {
    this.#o = options;
  }

  /** Creates or replaces a rule (its state is kept when only settings change). */
  async put(input: AlertRule): Promise<AlertStatus> {
    const rule = alertRule.parse(input);
    await this.#o.storage.monitoring.writeDocument(rule.project, RULE, rule.name, rule);
    return this.#status(rule, await this.#runtime(rule.project, rule.name));
  }

  async delete(project: string, name: string): Promise<boolean> {
    const deleted = await this.#o.storage.monitoring.deleteDocument(project, RULE, name);
    await this.#o.storage.monitoring.deleteDocument(project, RUNTIME, name);
    return deleted;
  }

  /** The rule, or `undefined` when the project has none of that name. */
  async get(project: string, name: string): Promise<AlertRuleParsed | undefined> {
    return (await this.#o.storage.monitoring.readDocument<AlertRuleParsed>(project, RULE, name))?.value;
  }

  async list(project: string): Promise<AlertStatus[]> {
    const rules = await this.#o.storage.monitoring.listDocuments<AlertRuleParsed>(RULE, project);
    return Promise.all(
      rules.map(async (doc) => this.#status(doc.value, await this.#runtime(project, doc.key))),
    );
  }

  async history(project: string, name: string, limit: number): Promise<AlertHistoryResponse> {
    const storage = this.#o.storage.monitoring;
    const [events, deliveries] = await Promise.all([
      storage.readLog<AlertEvent>(project, EVENTS, name, { limit }),
      storage.readLog<DeliveryLogEntry>(project, DELIVERY_LOG, name, { limit }),
    ]);
    return {
      events: events.map((entry) => entry.value),
      deliveries: deliveries.map(({ at, value }) => ({
        at,
        url: value.url,
        attempt: value.attempt,
        outcome: value.outcome,
        status: value.status,
        error: value.error,
        eventAt: value.eventAt,
      })),
    };
  }

  /** Evaluates every enabled rule that is due at `now`, one after the other. */
  async evaluateDue(now: number): Promise<void> {
    const rules = await this.#o.storage.monitoring.listDocuments<AlertRuleParsed>(RULE, undefined);
    for (const doc of rules) {
      const rule = doc.value;
      if (!rule.enabled) continue;
      const runtime = await this.#runtime(rule.project, rule.name);
      if (!this.#due(rule, runtime, now)) continue;
      await this.#evaluate(rule, runtime, now);
    }
  }

  #due(rule: AlertRuleParsed, runtime: AlertRuntime, now: number): boolean {
    if (runtime.lastEvaluatedAt === null) return true;
    if (rule.mode.type === 'threshold') return now - runtime.lastEvaluatedAt >= this.#o.everyMs;
    const width = WINDOW_MS[rule.window];
    return Math.floor(now / width) > Math.floor(runtime.lastEvaluatedAt / width);
  }

  async #evaluate(rule: AlertRuleParsed, runtime: AlertRuntime, now: number): Promise<void> {
    const link = (from: number, to: number) => callsLink(this.#o.publicUrl(), rule, from, to);
    let next = runtime;
    let findings: Finding[];
    try {
      if (rule.mode.type === 'threshold') {
        const to = Math.floor(now / 60_000) * 60_000;
        const from = to - WINDOW_MS[rule.window];
        const answer = await this.#query(rule, [rule.metric], from, to, 'total');
        const finding = thresholdFinding(rule, runtime, answer.series[0]?.values[0] ?? null);
        findings = [{ ...finding, callsUrl: link(from, to) }];
      } else {
        const result = await evaluateChange(
          rule,
          runtime,
          now,
          (from, to) => this.#windows(rule, from, to),
          link,
        );
        next = result.runtime;
        findings = result.findings;
      }
    } catch (error) {
      // A rule whose metric cannot be computed says why and is tried again at its next turn.
      await this.#o.storage.monitoring.writeDocument(rule.project, RUNTIME, rule.name, {
        ...runtime,
        lastEvaluatedAt: now,
        error: (error as Error).message,
      });
      return;
    }
    for (const finding of findings) {
      const step = transition(rule, next, finding, now);
      next = step.runtime;
      if (step.event === undefined) continue;
      await this.#o.storage.monitoring.appendLog(rule.project, EVENTS, rule.name, [
        { at: now, value: step.event },
      ]);
      if (step.deliver) await this.#o.deliveries.enqueue(step.event, rule.channels, now);
    }
    await this.#o.storage.monitoring.writeDocument(rule.project, RUNTIME, rule.name, {
      ...next,
      lastEvaluatedAt: now,
    });
  }

  /** The metric per window of `[from, to)`; error rates come with their errors and calls. */
  async #windows(rule: AlertRuleParsed, from: number, to: number): Promise<Observation[]> {
    if (to <= from) return [];
    const rate = seriesKindOf(rule.metric) === 'rate';
    const measures: MetricMeasure[] = rate ? ['errors', 'count'] : [rule.metric];
    const answer = await this.#query(rule, measures, from, to, WINDOW_BUCKET[rule.window]);
    const [first, second] = answer.series;
    return answer.buckets.map((at, i) => {
      if (!rate) return { at, value: first?.values[i] ?? null };
      const events = first?.values[i] ?? 0;
      const trials = second?.values[i] ?? 0;
      return { at, value: trials === 0 ? null : events / trials, events, trials };
    });
  }

  #query(
    rule: AlertRuleParsed,
    measures: MetricMeasure[],
    from: number,
    to: number,
    bucket: 'total' | (typeof WINDOW_BUCKET)[keyof typeof WINDOW_BUCKET],
  ): Promise<MetricsQueryResponse> {
    return runMetricsQuery(
      this.#o.storage,
      metricsQuery.parse({
        project: rule.project,
        from,
        to,
        bucket,
        measures,
        ...(rule.filter === undefined ? {} : { filter: rule.filter }),
      }),
    );
  }

  async #runtime(project: string, name: string): Promise<AlertRuntime> {
    const doc: StateDocument<AlertRuntime> | undefined = await this.#o.storage.monitoring.readDocument(
      project,
      RUNTIME,
      name,
    );
    return doc?.value ?? initialRuntime();
  }

  #status(rule: AlertRuleParsed, runtime: AlertRuntime): AlertStatus {
    return {
      rule,
      state: runtime.state,
      since: runtime.since,
      lastValue: runtime.lastValue,
      lastEvaluatedAt: runtime.lastEvaluatedAt,
      error: runtime.error,
    };
  }
}
