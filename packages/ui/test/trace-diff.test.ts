import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { op } from '@weft/sdk';
import { replay } from '@weft/sdk/replay';
import type { TestServer } from '@weft/test-server';
import { seriousViolations } from './support/axe.js';
import { artifactsDir } from './support/browser.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const PROJECT = 'trace-diff';

describe('the divergence diff in the web UI', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let original = '';
  let replayed = '';
  let bed: UiTestBed;

  beforeAll(async () => {
    bed = await startUiTestBed();
    server = bed.server;
    const client = bed.client(PROJECT);
    // The tool's index changed between the runs: step 1 finds something else.
    let index: Record<string, string> = {
      'question 0': 'page A',
      'question 1': 'page B',
      'question 2': 'page C',
    };
    // Named explicitly: the test transform may rename functions.
    const think = op(async (notes: string[]) => `question ${notes.length}`, { name: 'think' });
    const search = op(async (query: string) => index[query] ?? 'nothing', { name: 'search' });
    const step = op(async (notes: string[]) => search(await think(notes)), { name: 'step' });
    const agent = op(
      async (task: string) => {
        const notes: string[] = [task];
        for (let i = 0; i < 2; i++) notes.push(await step(notes));
        return notes;
      },
      { name: 'agent' },
    );
    await agent('start');
    await client.flush();
    const [root] = await client.getCalls({ parentId: null }).toArray();
    original = root?.id as string;
    index = { 'question 1': 'page B (updated)', 'question 2': 'page C' };
    // The tool runs live, the rest is served: the new search result flows on.
    const result = await replay(original, agent, { mode: 'live-after-divergence', live: ['search'] });
    replayed = result.traceId;
    await client.flush();
    browser = await bed.browser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  });

  afterAll(() => bed?.close());

  it('from a replay’s trace page, compares it with its original: the first divergence is marked and its differences shown', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/trace/${replayed}`);
    await page.getByRole('link', { name: 'Compare with original' }).click();
    await expect.poll(() => page.url()).toContain(`/trace/${original}/diff/${replayed}`);

    const first = page.locator('tr.first-divergence');
    await expect.poll(() => first.count()).toBe(1);
    expect(await first.getAttribute('data-path')).toBe('agent/step[0]/search[0]');
    expect(await page.locator('.diff-summary').textContent()).toContain(
      'First divergence at agent/step[0]/search[0]',
    );
    const detail = page.locator('.diff-detail');
    expect(await detail.locator('h2').textContent()).toBe('agent/step[0]/search[0]');
    expect(await detail.textContent()).toContain('"page B (updated)"');
    expect(await detail.textContent()).toContain('"page B"');
    // The steps before it match; those after it are marked.
    expect(await page.locator('tr[data-path="agent/step[0]/think[0]"] .diff-status').textContent()).toBe(
      'same',
    );
    expect(await page.locator('tr.after-divergence').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(artifactsDir(), 'trace-diff.png') });
  });

  it('selecting another step shows its differences, and the address keeps the selection', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/trace/${original}/diff/${replayed}`);
    const row = page.locator('tr[data-path="agent/step[1]"]');
    await expect.poll(() => row.count()).toBe(1);
    await row.locator('td').first().click();
    await expect.poll(() => page.url()).toContain('step=agent%2Fstep%5B1%5D');
    expect(await page.locator('.diff-detail h2').textContent()).toBe('agent/step[1]');
    expect(await page.locator('.diff-detail').textContent()).toContain('Inputs');
  });
});
