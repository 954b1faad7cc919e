import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { op } from '@weft/sdk';
import type { TestServer } from '@weft/test-server';
import { artifactsDir } from './support/browser.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const PROJECT = 'costs';

describe('cost in the web UI', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let pricedTrace = '';
  let unpricedTrace = '';
  let bed: UiTestBed;

  beforeAll(async () => {
    bed = await startUiTestBed();
    server = bed.server;
    // Recorded by the SDK, which prices each call from the built-in table.
    const client = bed.client(PROJECT);
    const llm = op(
      async (model: string, input: number, output: number) => ({
        model,
        text: 'ok',
        usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
      }),
      { name: 'llm' },
    );
    // gpt-4o: 10,000 in + 1,000 out = $0.035; gpt-4o-mini: 1,000 in + 100 out = $0.00021; total $0.03521.
    const research = op(
      async () => {
        await llm('gpt-4o', 10_000, 1_000);
        await llm('gpt-4o-mini', 1_000, 100);
        return 'done';
      },
      { name: 'research', onFinish: (c) => (pricedTrace = c.traceId) },
    );
    const local = op(async () => llm('local-llama', 500, 50), {
      name: 'local',
      onFinish: (c) => (unpricedTrace = c.traceId),
    });
    await research();
    await local();
    const flushed = await client.flush();
    expect(flushed).toMatchObject({ sent: 5, failed: 0, pending: 0 });
    browser = await bed.browser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  });

  afterAll(() => bed?.close());

  it('shows each root call’s cost in the calls table, blank for an unpriced model', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/traces`);
    const rows = page.locator('tr.call-row');
    await expect.poll(() => rows.count()).toBe(2);
    const header = await page.locator('.calls-table thead th').allTextContents();
    const costColumn = header.findIndex((h) => h.trim() === 'Cost');
    expect(costColumn).toBeGreaterThan(-1);
    const costOf = (trace: string) => page.locator(`tr.call-row[data-call-id="${trace}"] td`).nth(costColumn);
    expect(await costOf(pricedTrace).textContent()).toBe('$0.0352');
    expect(await costOf(pricedTrace).getAttribute('title')).toContain('0.03521');
    // Tokens are known, the price is not: no cost, never $0.
    expect(await costOf(unpricedTrace).textContent()).toBe('');
    await page.screenshot({ path: join(artifactsDir(), 'calls-cost.png') });
  });

  it('shows the trace’s total in its header and each call’s cost in its detail', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/trace/${pricedTrace}`);
    const total = page.locator('.trace-cost');
    await expect.poll(() => total.textContent()).toBe('Cost $0.0352');
    await page.locator('[role="treeitem"][data-op="llm"]').first().click();
    const detail = page.locator('.call-detail');
    await expect.poll(() => detail.locator('.call-cost').textContent()).toBe('$0.035');
    await page.screenshot({ path: join(artifactsDir(), 'trace-cost.png') });

    // A trace without a priced model shows no cost at all.
    await page.goto(`${server.url}/#/${PROJECT}/trace/${unpricedTrace}`);
    await page.locator('[role="treeitem"]').first().waitFor();
    expect(await page.locator('.trace-cost').count()).toBe(0);
    expect(await page.locator('.call-detail .call-cost').count()).toBe(0);
  });
});
