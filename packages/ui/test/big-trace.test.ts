import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { CallItem } from '@weft/protocol';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@weft/test-server';
import { ApiSeeder, completeCall } from './support/api-seed.js';
import { artifactsDir } from './support/browser.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const CALLS = 5_000;

describe('a 5,000-call trace', () => {
  let server: TestServer;
  let browser: Browser;
  let traceId: string;
  let lastId: string;
  let lastStepId: string;
  let bed: UiTestBed;

  beforeAll(async () => {
    bed = await startUiTestBed();
    server = bed.server;
    const seeder = new ApiSeeder(server.url, 'big');
    // One root, 50 agent steps (49 with 101 tool calls below, the last with none): 5,000 calls.
    traceId = randomUUID();
    const t0 = Date.now() - 600_000;
    const items: CallItem[] = [
      completeCall({
        id: traceId,
        traceId,
        parentId: null,
        opName: 'agent',
        startedAt: t0,
        endedAt: t0 + 500_000,
      }),
    ];
    for (let s = 0; items.length < CALLS; s++) {
      const step = completeCall({
        traceId,
        parentId: traceId,
        opName: 'step',
        displayName: `step ${s}`,
        startedAt: t0 + s * 10_000,
        endedAt: t0 + s * 10_000 + 9_000,
      });
      items.push(step);
      lastStepId = step.id;
      for (let k = 0; k < 101 && items.length < CALLS; k++) {
        const tool = completeCall({
          traceId,
          parentId: step.id,
          opName: 'tool',
          displayName: `tool ${s}.${k}`,
          startedAt: step.startedAt + k * 80,
          endedAt: step.startedAt + k * 80 + 70,
          inputs: { step: s, k },
        });
        items.push(tool);
        lastId = tool.id;
      }
    }
    expect(items).toHaveLength(CALLS);
    await seeder.calls(items);
    browser = await bed.browser();
  });

  afterAll(() => bed?.close());

  it('renders only the visible rows and scrolls to the last call', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const traceReads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/v1/traces/big/${traceId}/`))
        traceReads.push(new URL(request.url()).search);
    });
    // Opening the trace at its last call expands that call's ancestors.
    await page.goto(`${server.url}/#/big/trace/${traceId}?call=${lastId}`);
    const tree = page.locator('[role="tree"]');
    await tree.waitFor();
    await expect.poll(() => page.locator('.call-detail').getAttribute('data-call-id')).toBe(lastId);
    // Root + 50 steps + the 101 tools of the step holding the selected call.
    expect(await tree.getAttribute('data-row-count')).toBe(String(1 + 50 + 101));
    // The whole trace in one light, columnar read.
    expect(traceReads).toEqual(['?layout=columns']);
    // The selected last row is scrolled into view.
    expect(await page.locator(`[role="treeitem"][data-call-id="${lastId}"]`).isVisible()).toBe(true);

    // Expand all: every one of the 5,000 rows is in the list, few are in the DOM.
    await page.getByRole('button', { name: 'Expand all' }).click();
    await expect.poll(() => tree.getAttribute('data-row-count')).toBe(String(CALLS));
    const inDom = await page.locator('[role="treeitem"]').count();
    expect(inDom).toBeGreaterThan(10);
    expect(inDom).toBeLessThan(100);

    // Scroll to the top, then the keyboard's End selects the last row (the last step).
    await tree.evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.locator(`[role="treeitem"][data-call-id="${traceId}"]`).waitFor();
    await tree.focus();
    await page.keyboard.press('Home');
    await expect.poll(() => page.locator('.call-detail').getAttribute('data-call-id')).toBe(traceId);
    await page.keyboard.press('End');
    await expect.poll(() => page.locator('.call-detail').getAttribute('data-call-id')).toBe(lastStepId);
    await page.locator(`[role="treeitem"][data-call-id="${lastStepId}"]`).waitFor();
    // ↑ goes to the row above: the deepest last tool call of the step before.
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => page.locator('.call-detail').getAttribute('data-call-id')).toBe(lastId);
    expect(await page.locator('[role="treeitem"]').count()).toBeLessThan(100);
    await page.screenshot({ path: join(artifactsDir(), 'big-trace.png') });
    await page.close();
  });
});
