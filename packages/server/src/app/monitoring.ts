import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AlertService } from '../alerts/index.js';
import { EvaluatorService, type JudgeEndpoint, JudgeRunner } from '../evaluators/index.js';
import type { MonitoringOptionsParsed } from '../options/index.js';
import { MonitorScheduler } from '../scheduler/index.js';
import type { Storage } from '../storage/index.js';
import { DeliveryQueue } from '../webhooks/index.js';

/**
 * Monitoring's services for one app: alerts and their webhook deliveries,
 * and the scheduler that runs them (started when the app is ready, stopped
 * before it closes, so no tick runs against a closed storage).
 */
export function registerMonitoring(
  app: FastifyInstance,
  storage: Storage,
  options: MonitoringOptionsParsed,
): { alerts: AlertService; evaluators: EvaluatorService } {
  const now = options.now ?? Date.now;
  const deliveries = new DeliveryQueue(storage.monitoring, {
    timeoutMs: options.webhookTimeoutMs,
    retryMs: options.webhookRetryMs,
    attempts: options.webhookAttempts,
  });
  const alerts = new AlertService({
    storage,
    deliveries,
    everyMs: options.alertEveryMs,
    publicUrl: () => options.publicUrl ?? listeningUrl(app),
  });
  const evaluators = new EvaluatorService({ storage, now });
  if (options.scheduler) {
    const judge = new JudgeRunner({ storage, service: evaluators, endpoint: judgeEndpoint(options) });
    const scheduler = new MonitorScheduler({
      tickMs: options.tickMs,
      now,
      tasks: [
        { name: 'alerts', run: (at) => alerts.evaluateDue(at) },
        { name: 'webhooks', run: (at) => deliveries.deliverDue(at) },
        { name: 'judge', run: (at) => judge.runDue(at) },
      ],
      report: (task, error) => app.log.error({ err: error, task }, `monitoring: ${task} failed`),
    });
    app.addHook('onReady', async () => scheduler.start());
    app.addHook('preClose', async () => scheduler.stop());
  }
  return { alerts, evaluators };
}

/** The address the app listens on, as a URL (loopback when not listening yet). */
function listeningUrl(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo | null;
  if (address === null || typeof address === 'string') return 'http://127.0.0.1';
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** The judge from the options, else from `WEFT_JUDGE_PROVIDER`, `WEFT_JUDGE_BASE_URL` and `WEFT_JUDGE_API_KEY`. */
function judgeEndpoint(options: MonitoringOptionsParsed): JudgeEndpoint | undefined {
  if (options.judge !== undefined) return options.judge;
  const {
    WEFT_JUDGE_PROVIDER: provider,
    WEFT_JUDGE_BASE_URL: baseUrl,
    WEFT_JUDGE_API_KEY: apiKey,
  } = process.env;
  if ((provider !== 'openai' && provider !== 'anthropic') || !baseUrl || !apiKey) return undefined;
  return { provider, baseUrl, apiKey, timeoutMs: 60_000 };
}
