import { routes } from '@weft/protocol';
import type { TestServer } from '@weft/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSeeder, completeCall } from './support/api-seed.js';
import { seriousViolations } from './support/axe.js';
import { docsShot } from './support/browser.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const PROJECT = 'monitor';
const MINUTE = 60_000;

describe('monitoring pages in the web UI (no serious axe violation on any)', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let seeder: ApiSeeder;
  /** Start times of the seeded root calls. */
  const starts: number[] = [];
  let bed: UiTestBed;

  beforeAll(async () => {
    bed = await startUiTestBed({
      monitoring: { tickMs: 50, alertEveryMs: 100 },
    });
    server = bed.server;
    seeder = new ApiSeeder(server.url, PROJECT);
    // The rules first: a new evaluator scores calls completed from its creation on.
    await seeder.post(routes.evaluatorPut(), {
      project: PROJECT,
      name: 'helpful',
      filter: { opName: 'chat' },
      scorer: { type: 'code' },
    });
    await seeder.post(routes.alertPut(), {
      project: PROJECT,
      name: 'busy',
      metric: 'count',
      filter: { opName: 'chat' },
      window: '5m',
      mode: { type: 'threshold', direction: 'above', critical: 2 },
    });
    // One chat call every 40 s over the last 50 minutes, every fifth failing, each priced.
    const now = Date.now();
    const calls = Array.from({ length: 75 }, (_, i) => {
      const startedAt = now - 50 * MINUTE + i * 40_000;
      starts.push(startedAt);
      const id = crypto.randomUUID();
      return completeCall({
        id,
        traceId: id,
        parentId: null,
        opName: 'chat',
        startedAt,
        endedAt: startedAt + 200 + (i % 7) * 150,
        inputs: { n: i },
        output: { text: `answer ${i}` },
        ...(i % 5 === 4 ? { exception: { name: 'Error', message: 'upstream timeout' } } : {}),
        summary: {
          timeToFirstTokenMs: 80 + (i % 4) * 20,
          usage: {
            [i % 2 === 0 ? 'gpt-4o-mini' : 'gpt-4o']: {
              requests: 1,
              inputTokens: 400,
              outputTokens: 80,
              totalTokens: 480,
              costUsd: i % 2 === 0 ? 0.000108 : 0.0018,
            },
          },
        },
      });
    });
    await seeder.calls(calls);
    // The code evaluator's walk, as monitor() does it: pull, score, store.
    for (;;) {
      const pulled = await seeder.post<{
        calls: { id: string; inputs: { n: number } }[];
        cursor: string;
        version: number;
        idle: boolean;
      }>(routes.evaluatorPull(), { project: PROJECT, name: 'helpful', limit: 100 });
      await seeder.post(routes.evaluatorResults(), {
        project: PROJECT,
        name: 'helpful',
        version: pulled.version,
        cursor: pulled.cursor,
        results: pulled.calls.map((c) => ({ callId: c.id, scores: { helpful: c.inputs.n % 3 !== 0 } })),
      });
      if (pulled.idle && pulled.calls.length === 0) break;
    }
    browser = await bed.browser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });

  afterAll(() => bed?.close());

  it('draws the default dashboard, and a click on a point opens exactly the calls behind it', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/dashboards?range=1h`);
    const volume = page.locator('[data-panel="volume"]');
    await volume.locator('.u-over').waitFor();
    for (const panel of ['errors', 'latency', 'ttft', 'cost', 'tokens', 'ops', 'scores']) {
      await page.locator(`[data-panel="${panel}"] canvas`).waitFor();
    }
    await docsShot(page, 'dashboard', { fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    // A point in the middle of the last hour: a minute with calls in it.
    const box = await volume.locator('.u-over').boundingBox();
    if (box === null) throw new Error('the volume chart has no plot area');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#\/monitor\/traces\?/);
    const query = new URLSearchParams((await page.evaluate(() => location.hash)).split('?')[1]);
    const from = Number(query.get('from'));
    const to = Number(query.get('to'));
    expect(to - from).toBe(MINUTE);
    const expected = starts.filter((t) => t >= from && t < to).length;
    expect(expected).toBeGreaterThan(0);
    await expect.poll(() => page.locator('tr.call-row').count()).toBe(expected);
    await expect.poll(() => page.locator('[data-total="count"]').textContent()).toBe(String(expected));
    await expect(page.locator('[data-filter="started"]').textContent()).resolves.toContain('started');
  });

  it('saves the dashboard shown as a custom one that opens by its address, and names a bad panel', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/dashboards?range=1h`);
    await page.locator('[data-panel="volume"] canvas').waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.locator('input[name="dashboard-name"]').fill('chat-latency');
    const panels = page.locator('textarea[name="panels"]');
    // The editor starts from the panels shown.
    expect(JSON.parse(await panels.inputValue())[0]).toMatchObject({ title: 'Traces', measures: ['count'] });
    await panels.fill(
      JSON.stringify([{ title: 'p95 by op', measures: ['latency.p42'], groupBy: 'op', unit: 'ms' }]),
    );
    await page.getByRole('button', { name: 'Save dashboard' }).click();
    await expect
      .poll(() => page.locator('.dashboard-editor [role="alert"]').textContent())
      .toContain('measures');
    await panels.fill(
      JSON.stringify([{ title: 'p95 by op', measures: ['latency.p95'], groupBy: 'op', unit: 'ms' }]),
    );
    await page.getByRole('button', { name: 'Save dashboard' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/${PROJECT}/dashboards/chat-latency`);
    // Shared by its address: a fresh page draws it.
    await page.goto(`${server.url}/#/${PROJECT}/dashboards/chat-latency?range=1h`);
    const panel = page.locator('[data-panel="panel-0"]');
    await panel.locator('canvas').waitFor();
    expect(await panel.locator('h2').textContent()).toBe('p95 by op');
    expect(await page.locator('[data-panel]').count()).toBe(1);
    await docsShot(page, 'dashboard-custom');
    expect(await seriousViolations(page)).toEqual([]);
    const list = await fetch(`${server.url}${routes.dashboardList(PROJECT)}`);
    expect(((await list.json()) as { dashboards: { name: string }[] }).dashboards.map((d) => d.name)).toEqual(
      ['chat-latency'],
    );
  });

  it('lists online evaluators with what they scored, and shows one with its recent results', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/evaluators`);
    const row = page.locator('tr.evaluator-row[data-evaluator="helpful"]');
    await expect.poll(() => row.locator('[data-field="scored"]').textContent()).toBe('75');
    expect(await row.locator('[data-field="failed"]').textContent()).toBe('0');
    await docsShot(page, 'evaluators');
    expect(await seriousViolations(page)).toEqual([]);
    await row.locator('a').click();
    await expect.poll(() => page.locator('tr.result-row').count()).toBeGreaterThan(0);
    const first = page.locator('tr.result-row').first();
    expect(await first.locator('.scores').textContent()).toMatch(/^helpful: (true|false)$/);
    await docsShot(page, 'evaluator');
    expect(await seriousViolations(page)).toEqual([]);
    // A result links to its call.
    await first.locator('a').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#\/monitor\/calls\//);
  });

  it('lists alerts with their state, and shows one with its history and the calls behind it', async () => {
    // The scheduler evaluates the alert on its own: wait for its first state change.
    await expect
      .poll(async () => {
        const response = await fetch(`${server.url}${routes.alertHistory(PROJECT, 'busy')}`);
        return ((await response.json()) as { events: unknown[] }).events.length;
      })
      .toBeGreaterThan(0);
    await page.goto(`${server.url}/#/${PROJECT}/alerts`);
    const row = page.locator('tr.alert-row[data-alert="busy"]');
    await row.waitFor();
    expect(await row.textContent()).toContain('above 2 (critical)');
    await docsShot(page, 'alerts');
    expect(await seriousViolations(page)).toEqual([]);
    await row.locator('a').click();
    const event = page.locator('tr.event-row').first();
    await event.waitFor();
    expect(await event.getAttribute('data-state')).toBe('critical');
    await docsShot(page, 'alert');
    expect(await seriousViolations(page)).toEqual([]);
    await event.locator('a').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#\/monitor\/calls\?.*from=/);
    await expect.poll(() => page.locator('tr.call-row').count()).toBeGreaterThan(2);
  });
  it('mutes an alert for the chosen time from the alerts page without opening it, and unmutes it', async () => {
    const mutedUntil = async () => {
      const response = await fetch(`${server.url}${routes.alertList(PROJECT)}`);
      const { alerts } = (await response.json()) as {
        alerts: { rule: { name: string; mutedUntil: number | null } }[];
      };
      return alerts.find((a) => a.rule.name === 'busy')?.rule.mutedUntil;
    };
    expect(await mutedUntil()).toBeNull();
    await page.goto(`${server.url}/#/${PROJECT}/alerts`);
    const row = page.locator('tr.alert-row[data-alert="busy"]');
    await row.waitFor();
    await row.getByLabel('Mute busy for').selectOption({ label: '1 day' });
    const before = Date.now();
    await row.getByRole('button', { name: 'Mute', exact: true }).click();
    await row.getByRole('button', { name: 'Unmute' }).waitFor();
    const until = (await mutedUntil()) as number;
    expect(until).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    expect(await row.locator('.muted-until').textContent()).toMatch(/^muted until /);
    // The controls sit in a row that opens its alert on click: this click did not.
    expect(await page.evaluate(() => location.hash)).toBe(`#/${PROJECT}/alerts`);
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByRole('button', { name: 'Unmute' }).click();
    await row.getByRole('button', { name: 'Mute', exact: true }).waitFor();
    expect(await mutedUntil()).toBeNull();
  });
});
