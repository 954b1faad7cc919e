import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '@weft/test-server';
import { ApiSeeder, completeCall } from './support/api-seed.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

/**
 * Rows an older server accepted before timestamps were range-checked at
 * ingest (issue 26.4): `startedAt: 1e300`, past what a JS Date holds. The UI
 * must survive them, and one project's bad row must never hide the others.
 */
describe('web UI over out-of-range timestamps', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const bad = completeCall({
    traceId: '0190a5f0-0000-7000-8000-00000000bad1',
    id: '0190a5f0-0000-7000-8000-00000000bad1',
    parentId: null,
    opName: 'poisoned',
    startedAt: Date.now() - 2_000,
    endedAt: Date.now() - 1_000,
  });
  let bed: UiTestBed;

  beforeAll(async () => {
    bed = await startUiTestBed();
    server = bed.server;
    await new ApiSeeder(server.url, 'poisoned').calls([bad]);
    const t0 = Date.now() - 5_000;
    await new ApiSeeder(server.url, 'healthy').calls([
      completeCall({
        traceId: crypto.randomUUID(),
        parentId: null,
        opName: 'fine',
        startedAt: t0,
        endedAt: t0 + 9,
      }),
    ]);
    // What an old server stored: written straight into its database while it is stopped.
    await server.stop();
    const db = new Database(server.dbPath);
    db.prepare('UPDATE calls SET started_at = 1e300, ended_at = 1e300 WHERE project = ?').run('poisoned');
    db.close();
    await server.start();
    browser = await bed.browser();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  });
  afterEach(async () => {
    await page.close();
  });
  afterAll(() => bed?.close());

  it('lists every project, the poisoned one with a dash for its last call', async () => {
    await page.goto(`${server.url}/#/`);
    const rows = page.locator('table.project-list tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.locator('tr[data-project="poisoned"] td.col-time').textContent()).toBe('—');
    expect(await page.locator('tr[data-project="healthy"] td.col-time').textContent()).not.toBe('—');
  });

  it('shows the poisoned project’s calls, its call page and its trace with dashes for the times', async () => {
    await page.goto(`${server.url}/#/poisoned/traces`);
    const row = page.locator(`tr.call-row[data-call-id="${bad.id}"]`);
    await row.waitFor();
    expect(await row.locator('td.col-time').textContent()).toBe('—');

    await page.goto(`${server.url}/#/poisoned/calls/${bad.id}`);
    const detail = page.locator('.call-detail');
    await detail.waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    await page.goto(`${server.url}/#/poisoned/trace/${bad.id}`);
    await page.locator(`[role="treeitem"][data-call-id="${bad.id}"]`).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
