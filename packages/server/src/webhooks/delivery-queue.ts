import type { AlertEvent, WebhookChannel } from '@weft/protocol';
import type { MonitorStorage } from '../storage/index.js';
import { sendWebhook } from './send-webhook.js';
import { webhookBody } from './webhook-body.js';

/** Document kind of a delivery waiting for its next attempt. */
export const DELIVERY_KIND = 'webhook-delivery';
/** Log kind of delivery attempts, keyed by alert rule. */
export const DELIVERY_LOG = 'alert-delivery';

/** A delivery waiting in storage: it survives restarts, and any replica's scheduler may send it. */
export interface PendingDelivery {
  rule: string;
  eventAt: number;
  id: string;
  url: string;
  format: 'json' | 'slack';
  body: unknown;
  /** Attempts made so far. */
  attempts: number;
  nextAt: number;
}

/** One attempt, as the delivery log lists it. */
export interface DeliveryLogEntry {
  url: string;
  attempt: number;
  outcome: 'delivered' | 'retrying' | 'failed';
  status: number | null;
  error: string | null;
  eventAt: number;
  nextAt?: number;
}

export interface DeliveryPolicy {
  timeoutMs: number;
  retryMs: number;
  attempts: number;
}

/** Longest wait between attempts. */
const MAX_BACKOFF_MS = 300_000;
/** Deliveries sent at once. */
const CONCURRENCY = 4;

/**
 * Webhook deliveries of alert events: each (event, channel) is a document
 * until delivered or given up, so a receiver that is down gets the event
 * when it is back (retries with exponential backoff and jitter, or its
 * Retry-After), across server restarts. Every attempt is logged under its
 * rule. The id in the body is the same on every attempt.
 */
export class DeliveryQueue {
  readonly #storage: MonitorStorage;
  readonly #policy: DeliveryPolicy;
  readonly #random: () => number;

  constructor(storage: MonitorStorage, policy: DeliveryPolicy, random: () => number = Math.random) {
    this.#storage = storage;
    this.#policy = policy;
    this.#random = random;
  }

  /** Queues an event for each channel, due at once. */
  async enqueue(
    event: AlertEvent,
    channels: readonly Required<WebhookChannel>[],
    now: number,
  ): Promise<void> {
    for (const [index, channel] of channels.entries()) {
      const id = `${event.project}/${event.rule}/${event.at}/${index}`;
      const pending: PendingDelivery = {
        rule: event.rule,
        eventAt: event.at,
        id,
        url: channel.url,
        format: channel.format,
        body: webhookBody(channel.format, id, event),
        attempts: 0,
        nextAt: now,
      };
      await this.#storage.writeDocument(event.project, DELIVERY_KIND, id, pending);
    }
  }

  /** Attempts every delivery due by `now`, a few at a time. */
  async deliverDue(now: number): Promise<void> {
    const due = (await this.#storage.listDocuments<PendingDelivery>(DELIVERY_KIND, undefined)).filter(
      (doc) => doc.value.nextAt <= now,
    );
    for (let at = 0; at < due.length; at += CONCURRENCY) {
      await Promise.all(
        due.slice(at, at + CONCURRENCY).map((doc) => this.#attempt(doc.project, doc.key, doc.value, now)),
      );
    }
  }

  async #attempt(project: string, key: string, pending: PendingDelivery, now: number): Promise<void> {
    const outcome = await sendWebhook(pending.url, pending.body, this.#policy.timeoutMs);
    const attempt = pending.attempts + 1;
    const entry: DeliveryLogEntry = {
      url: pending.url,
      attempt,
      outcome: 'delivered',
      status: outcome.status,
      error: outcome.delivered ? null : outcome.error,
      eventAt: pending.eventAt,
    };
    if (outcome.delivered) {
      await this.#storage.deleteDocument(project, DELIVERY_KIND, key);
    } else if (attempt >= this.#policy.attempts) {
      entry.outcome = 'failed';
      await this.#storage.deleteDocument(project, DELIVERY_KIND, key);
    } else {
      const backoff = Math.min(MAX_BACKOFF_MS, this.#policy.retryMs * 2 ** (attempt - 1));
      const wait = Math.max(outcome.retryAfterMs ?? 0, backoff * (0.8 + 0.4 * this.#random()));
      entry.outcome = 'retrying';
      entry.nextAt = now + Math.min(wait, MAX_BACKOFF_MS);
      await this.#storage.writeDocument(project, DELIVERY_KIND, key, {
        ...pending,
        attempts: attempt,
        nextAt: entry.nextAt,
      });
    }
    await this.#storage.appendLog(project, DELIVERY_LOG, pending.rule, [{ at: now, value: entry }]);
  }
}
