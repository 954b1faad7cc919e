import { randomUUID } from 'node:crypto';
import type { CallItem } from '@weft/protocol';
import type { Browser, Route as NetworkRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@weft/test-server';
import { ApiSeeder, completeCall } from './support/api-seed.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const CALLS = 25_001;

describe('a 25,001-call trace', () => {
  let server: TestServer;
  let browser: Browser;
  let traceId: string;
  let bed: UiTestBed;

  beforeAll(async () => {
    bed = await startUiTestBed();
    server = bed.server;
    // One agent root with 25,000 tool calls under it, a second apart.
    traceId = randomUUID();
    const t0 = Date.now() - 30_000_000;
    const items: CallItem[] = [
      completeCall({
        id: traceId,
        traceId,
        parentId: null,
        opName: 'agent',
        startedAt: t0,
        endedAt: t0 + 26_000_000,
      }),
    ];
    for (let i = 1; i < CALLS; i++) {
      const startedAt = t0 + i * 1_000;
      items.push(
        completeCall({ traceId, parentId: traceId, opName: 'tool', startedAt, endedAt: startedAt + 500 }),
      );
    }
    await new ApiSeeder(server.url, 'huge').calls(items);
    browser = await bed.browser();
  }, 120_000);

  afterAll(() => bed?.close());

  it('shows its first rows from the first page, before the rest has loaded', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Hold every page after the first until the first rows are on screen:
    // the tree must not wait for all 26 pages.
    const held: NetworkRoute[] = [];
    let releaseAll = false;
    await page.route('**/v1/calls/query', async (route) => {
      const body = route.request().postDataJSON() as { cursor?: string };
      if (body.cursor === undefined || releaseAll) await route.continue();
      else held.push(route);
    });
    await page.goto(`${server.url}/#/huge/trace/${traceId}`);
    const root = page.locator(`[role="treeitem"][data-call-id="${traceId}"]`);
    await root.waitFor();
    await expect.poll(() => page.locator('[role="treeitem"][data-op="tool"]').count()).toBeGreaterThan(10);
    expect(await page.locator('.live-indicator').textContent()).toBe('Loading… 1,000 calls');
    expect(held.length).toBe(1);

    releaseAll = true;
    for (const route of held) await route.continue();
    await expect
      .poll(() => page.locator('.live-indicator').textContent(), { timeout: 60_000 })
      .toBe('25,001 calls');
    expect(await page.locator('[role="tree"]').getAttribute('data-row-count')).toBe(String(CALLS));
    await page.close();
  }, 90_000);
});
