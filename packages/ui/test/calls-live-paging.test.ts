import { randomUUID } from 'node:crypto';
import { routes } from '@weft/protocol';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@weft/test-server';
import { ApiSeeder } from './support/api-seed.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

describe('live updates and paging', () => {
  let server: TestServer;
  let browser: Browser;
  let seeder: ApiSeeder;
  let bed: UiTestBed;

  beforeAll(async () => {
    bed = await startUiTestBed();
    server = bed.server;
    seeder = new ApiSeeder(server.url, 'live');
    browser = await bed.browser();
  });

  afterAll(() => bed?.close());

  it('shows a running call finish, and a new call appear, without a reload', async () => {
    const id = randomUUID();
    const startedAt = Date.now() - 2_000;
    await seeder.calls([
      { type: 'start', id, traceId: id, parentId: null, opName: 'long_job', startedAt, inputs: { n: 1 } },
    ]);
    const page = await browser.newPage();
    await page.goto(`${server.url}/#/live/traces`);
    const row = page.locator(`tr.call-row[data-call-id="${id}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('running');

    // The page polls while it shows running calls; the end arrives meanwhile.
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/v1/calls/query') && r.status() === 200);
    await seeder.calls([
      { type: 'end', id, endedAt: Date.now(), output: 'done', summary: { status: 'success' } },
    ]);
    await refreshed;
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('success');

    const second = randomUUID();
    await seeder.calls([
      {
        type: 'complete',
        id: second,
        traceId: second,
        parentId: null,
        opName: 'short_job',
        startedAt: Date.now(),
        endedAt: Date.now() + 5,
        inputs: {},
      },
    ]);
    await expect.poll(() => page.locator('tr.call-row').count(), { timeout: 15_000 }).toBe(2);
    await page.close();
  });

  it('pages through root calls with the server cursor, forward and back', async () => {
    const paged = new ApiSeeder(server.url, 'paged');
    const t0 = Date.now() - 3_600_000;
    await paged.calls(
      Array.from({ length: 120 }, (_, i) => {
        const id = randomUUID();
        return {
          type: 'complete' as const,
          id,
          traceId: id,
          parentId: null,
          opName: 'job',
          displayName: `job ${String(i).padStart(3, '0')}`,
          startedAt: t0 + i * 1_000,
          endedAt: t0 + i * 1_000 + 10,
          inputs: {},
        };
      }),
    );
    const page = await browser.newPage();
    await page.goto(`${server.url}/#/paged/traces`);
    const names = () => page.locator('tr.call-row td.col-name').allTextContents();
    await expect.poll(async () => (await names()).length).toBe(50);
    const first = await names();
    expect(first[0]).toBe('job 119');
    const next = page.getByRole('button', { name: 'Next ›' });
    await next.click();
    await expect.poll(async () => (await names())[0]).toBe('job 069');
    await next.click();
    await expect.poll(async () => (await names()).length).toBe(20);
    expect((await names()).at(-1)).toBe('job 000');
    expect(await next.isDisabled()).toBe(true);
    await page.getByRole('button', { name: '‹ Previous' }).click();
    await expect.poll(async () => (await names())[0]).toBe('job 069');
    expect(await page.locator('.pager-label').textContent()).toBe('Page 2');

    // These calls started about an hour ago: none in the last 15 minutes, all in the last 24 hours.
    await page.selectOption('select[name="range"]', '15m');
    await expect.poll(() => page.locator('tr.empty-row').count()).toBe(1);
    expect(await page.locator('.pager-label').textContent()).toBe('Page 1');
    await page.selectOption('select[name="range"]', '24h');
    await expect.poll(async () => (await names()).length).toBe(50);
    await page.close();
  });

  it('pages a table’s rows from the server', async () => {
    const tables = new ApiSeeder(server.url, 'tables');
    const rows = Array.from({ length: 60 }, (_, i) => ({ id: i, text: `row ${i}` }));
    const { digest } = await tables.post<{ digest: string }>(routes.tableCreate(), {
      project: 'tables',
      rows,
    });
    const page = await browser.newPage();
    await page.goto(`${server.url}/#/tables/tables/${digest}`);
    const label = page.locator('.pager-label');
    await expect.poll(() => label.textContent()).toBe('Rows 1–25 of 60');
    await page.getByRole('button', { name: 'Next ›' }).click();
    await expect.poll(() => label.textContent()).toBe('Rows 26–50 of 60');
    expect(await page.locator('tr.dataset-row').first().textContent()).toContain('row 25');
    await page.getByRole('button', { name: 'Next ›' }).click();
    await expect.poll(() => page.locator('tr.dataset-row').count()).toBe(10);
    // Enter on a row opens its full value.
    await page.locator('tr.dataset-row').last().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('tr.row-detail').textContent()).toContain('"row 59"');
    await page.close();
  });
});
