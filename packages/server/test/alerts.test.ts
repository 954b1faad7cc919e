import { type AlertRule, type CallComplete, routes } from '@weft/protocol';
import { startTestServer } from '@weft/test-server';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { callIdOf } from './support/calls.js';
import { get, post } from './support/http.js';
import { freshTestStorageUrl } from './support/test-storage.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

const MINUTE = 60_000;
/** 10:00 UTC: the threshold window of a clock at 10:00:30 is [09:59, 10:00). */
const T0 = Date.UTC(2026, 10, 2, 10);

/** The scheduler's clock, moved by each test. */
let clock = T0;

async function startServer() {
  const server = await startTestServer({
    storage: freshTestStorageUrl(),
    register: false,
    monitoring: {
      tickMs: 10,
      alertEveryMs: 1,
      webhookRetryMs: 20,
      webhookTimeoutMs: 2_000,
      now: () => clock,
    },
  });
  onTestFinished(() => server.close());
  return server;
}

let n = 0;
/** `count` calls of op `chat` started in the minute beginning at `minute`. */
function callsIn(minute: number, count: number, error = false): CallComplete[] {
  return Array.from({ length: count }, (_, i) => {
    const id = callIdOf(++n, 29);
    return {
      type: 'complete',
      id,
      traceId: id,
      parentId: null,
      opName: 'chat',
      startedAt: minute + 1_000 * (i + 1),
      inputs: {},
      endedAt: minute + 1_000 * (i + 1) + 200,
      ...(error ? { exception: { name: 'Error', message: 'boom' } } : {}),
    };
  });
}

const rule = (project: string, receiver: WebhookReceiver, extra: Partial<AlertRule> = {}): AlertRule => ({
  project,
  name: 'busy',
  metric: 'count',
  filter: { opName: 'chat' },
  window: 'minute',
  mode: { type: 'threshold', direction: 'above', critical: 5 },
  noData: 'ok',
  channels: [{ url: receiver.url, format: 'json' }],
  ...extra,
});

let receiver: WebhookReceiver;
afterEach(() => receiver?.close());

async function status(url: string, project: string) {
  const reply = await get(url, routes.alertList(project));
  expect(reply.status).toBe(200);
  return reply.body.alerts[0];
}

describe('alerts', () => {
  it('fire once, repeat nothing while firing, recover once, and reach a receiver that was down when it fired', async () => {
    receiver = await startWebhookReceiver();
    const server = await startServer();
    const project = 'alerts-threshold';
    clock = T0 + 30_000;
    expect(
      (await post(server.url, routes.callBatch(), { project, items: callsIn(T0 - MINUTE, 6) })).status,
    ).toBe(200);
    const put = await post(server.url, routes.alertPut(), rule(project, receiver));
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    const fired = (await receiver.received(1)) as Record<string, unknown>;
    expect(fired).toMatchObject({
      project,
      rule: 'busy',
      state: 'critical',
      previous: 'ok',
      value: 6,
      muted: false,
    });
    expect(fired.message).toMatch(/count of opName chat is 6 over the last minute \(critical ≥ 5\)/);
    expect(fired.callsUrl).toMatch(new RegExp(`/#/${project}/calls\\?op=chat&from=${T0 - MINUTE}&to=${T0}$`));

    // Three more evaluations of the same window: still critical, nothing delivered again.
    for (let i = 1; i <= 3; i++) {
      clock = T0 + 30_000 + i * 1_000;
      await vi.waitFor(async () => expect((await status(server.url, project)).lastEvaluatedAt).toBe(clock), {
        timeout: 10_000,
      });
    }
    expect(receiver.bodies).toHaveLength(1);

    // The next minute has no call of op chat: the count is 0, and the alert recovers.
    clock = T0 + MINUTE + 30_000;
    expect(await receiver.received(2)).toMatchObject({ state: 'ok', previous: 'critical', value: 0 });

    // The receiver goes down; the alert fires again; the delivery waits and retries until it is back.
    await receiver.down();
    expect(
      (await post(server.url, routes.callBatch(), { project, items: callsIn(T0 + MINUTE, 7) })).status,
    ).toBe(200);
    clock = T0 + 2 * MINUTE + 30_000;
    await vi.waitFor(
      async () => {
        const history = await get(server.url, routes.alertHistory(project, 'busy'));
        expect(history.body.deliveries[0]).toMatchObject({ outcome: 'retrying', status: null, attempt: 1 });
      },
      { timeout: 10_000 },
    );
    expect(receiver.bodies).toHaveLength(2);
    await receiver.up();
    clock += 1_000;
    expect(await receiver.received(3)).toMatchObject({ state: 'critical', previous: 'ok', value: 7 });
    // The attempt is logged once the receiver has answered.
    await vi.waitFor(
      async () => {
        const history = await get(server.url, routes.alertHistory(project, 'busy'));
        expect(history.body.events.map((e: { state: string }) => e.state)).toEqual([
          'critical',
          'ok',
          'critical',
        ]);
        const outcomes = history.body.deliveries.map((d: { outcome: string }) => d.outcome);
        expect(outcomes[0]).toBe('delivered');
        expect(outcomes).toContain('retrying');
      },
      { timeout: 10_000 },
    );
    expect(receiver.bodies).toHaveLength(3);
  });

  it('records state changes while muted without delivering them, and delivers the state that holds when the mute ends', async () => {
    receiver = await startWebhookReceiver();
    const server = await startServer();
    const project = 'alerts-muted';
    clock = T0 + 30_000;
    await post(server.url, routes.callBatch(), { project, items: callsIn(T0 - MINUTE, 6) });
    await post(server.url, routes.alertPut(), rule(project, receiver, { mutedUntil: T0 + 10 * MINUTE }));
    await vi.waitFor(async () => expect((await status(server.url, project)).state).toBe('critical'), {
      timeout: 10_000,
    });
    const history = await get(server.url, routes.alertHistory(project, 'busy'));
    expect(history.body.events).toMatchObject([{ state: 'critical', muted: true }]);
    expect(receiver.bodies).toEqual([]);

    const unmute = await post(server.url, routes.alertMute(), { project, name: 'busy', until: null });
    expect(unmute.status).toBe(200);
    clock += 1_000;
    expect(await receiver.received(1)).toMatchObject({ state: 'critical', previous: 'ok', muted: false });
  });

  it('goes to nodata on a window without a value when the no-data policy says so, and says so', async () => {
    receiver = await startWebhookReceiver();
    const server = await startServer();
    const project = 'alerts-nodata';
    clock = T0 + 30_000;
    await post(
      server.url,
      routes.alertPut(),
      rule(project, receiver, {
        metric: 'latency.p95',
        mode: { type: 'threshold', critical: 1_000 },
        noData: 'alert',
      }),
    );
    expect(await receiver.received(1)).toMatchObject({
      state: 'nodata',
      previous: 'ok',
      value: null,
      message: 'latency.p95 of opName chat: no data over the last minute',
    });
  });

  it('answers a bad rule with a 400 naming the field, and an unknown alert with a 404', async () => {
    receiver = await startWebhookReceiver();
    const server = await startServer();
    const bad = await post(server.url, routes.alertPut(), {
      ...rule('alerts-bad', receiver),
      mode: { type: 'threshold' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/set warning, critical or both/);
    const metric = await post(server.url, routes.alertPut(), {
      ...rule('alerts-bad', receiver),
      metric: 'latency.p42',
    });
    expect(metric.status).toBe(400);
    expect(metric.body.error.path).toBe('metric');
    const missing = await get(server.url, routes.alertHistory('alerts-bad', 'nope'));
    expect(missing.status).toBe(404);
  });
});
