import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { currentCall, feedback, flush, op, publish, withAttributes, withSession } from '@weft/sdk';
import type { TestServer } from '@weft/test-server';
import { ApiSeeder, type SeededRun } from './support/api-seed.js';
import { artifactsDir } from './support/browser.js';
import { seedEvaluations } from './support/seed-evaluations.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const PROJECT = 'loop';
/** Screenshots for docs/ui.md: written as test artifacts, then copied next to the docs. */
const DOCS_DIR = fileURLToPath(new URL('../../../docs/ui/', import.meta.url));

describe('web UI: feedback, sessions, filters, search, datasets, compare with intervals', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let runA: SeededRun;
  let runB: SeededRun;
  const turnIds: string[] = [];
  let bed: UiTestBed;
  const shot = async (name: string) => {
    const path = join(artifactsDir(), `${name}.png`);
    await page.screenshot({ path });
    await copyFile(path, join(DOCS_DIR, `${name}.png`));
  };

  beforeAll(async () => {
    bed = await startUiTestBed();
    server = bed.server;
    const client = bed.client(PROJECT);
    // A traced chat: two sessions, attributes per user, feedback from the SDK.
    const chatOp = op(async function chat(messages: { role: string; content: string }[]) {
      turnIds.push(currentCall()?.id ?? '');
      const last = messages.at(-1)?.content ?? '';
      return { role: 'assistant', content: `About ${last.toLowerCase()}: lighthouses guide ships at night.` };
    });
    const history: { role: string; content: string }[] = [];
    await withSession('support-42', () =>
      withAttributes({ env: 'prod', 'user.id': 'ana', tags: ['vip'] }, async () => {
        for (const question of ['What is a lighthouse?', 'Who keeps it running?']) {
          history.push({ role: 'user', content: question });
          history.push(await chatOp([...history]));
        }
      }),
    );
    await withSession('support-43', () =>
      withAttributes({ env: 'dev', 'user.id': 'bo' }, () =>
        chatOp([{ role: 'user', content: 'Volcanoes?' }]),
      ),
    );
    feedback(turnIds[0] as string, { name: 'thumbs', value: true, comment: 'clear answer', source: 'sdk' });
    const v1 = await publish({ template: 'Answer briefly: {q}' }, { name: 'AnswerPrompt' });
    await publish({ template: 'Answer in one sentence: {q}' }, { name: 'AnswerPrompt' });
    await client.setLabel(v1, 'production');
    ({ runA, runB } = await seedEvaluations(new ApiSeeder(server.url, PROJECT)));
    await flush();
    browser = await bed.browser();
  });

  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  });
  afterEach(async () => {
    await page.close();
  });
  afterAll(() => bed?.close());

  it('lists the projects to click, no typing', async () => {
    await page.goto(`${server.url}/`);
    const row = page.locator(`.project-list tr[data-project="${PROJECT}"]`);
    await row.waitFor();
    // Its activity over the last day and week, from the server's metrics.
    const week = row.locator('td[data-stat="calls-week"]');
    await expect
      .poll(async () => Number((await week.textContent())?.replace(/,/g, '') || 0))
      .toBeGreaterThan(0);
    expect(await row.locator('td[data-stat="calls-day"]').textContent()).toBe(await week.textContent());
    await shot('projects');
    await row.locator('a').click();
    await page.waitForURL(`${server.url}/#/${PROJECT}/traces`);
  });

  it('searches inputs and outputs with highlighted matches', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/traces`);
    await page.fill('input[name=q]', 'volcanoes');
    await page.press('input[name=q]', 'Enter');
    await page.locator('.call-row .snippet mark').first().waitFor();
    expect(await page.locator('.calls-table:not(.stale) .call-row').count()).toBe(1);
    expect((await page.locator('.snippet mark').first().textContent())?.toLowerCase()).toBe('volcanoes');
    await shot('search');
  });

  it('filters by attribute chips, and removes a chip', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/traces?op=chat`);
    await page.locator('.call-row').nth(2).waitFor();
    await page.fill('input[name=attribute]', 'user.id=ana');
    await page.press('input[name=attribute]', 'Enter');
    await page.locator('.chip[data-attribute="user.id"]').waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('.calls-table:not(.stale) .call-row').length === 2,
    );
    await shot('attribute-chips');
    await page.click('button[aria-label="Remove user.id filter"]');
    await page.waitForFunction(
      () => document.querySelectorAll('.calls-table:not(.stale) .call-row').length === 3,
    );
  });

  it('gives thumbs, a score and a comment on a call, and lists the feedback', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/calls/${turnIds[1]}`);
    await page.locator('.feedback-panel').waitFor();
    await page.fill('input[name=feedback-comment]', 'too long');
    await page.click('button[aria-label="Thumbs down"]');
    await page.locator('.feedback-list li[data-feedback-name="thumbs"]').waitFor();
    await page.fill('input[name=feedback-score]', '0.4');
    await page.click('text=Add score');
    await page.locator('.feedback-list li[data-feedback-name="score"]').waitFor();
    await shot('feedback');
    // Stored on the server: the calls list filters by it.
    await page.goto(`${server.url}/#/${PROJECT}/traces?feedback=down`);
    await page.locator(`.call-row[data-call-id="${turnIds[1]}"]`).waitFor();
    expect(await page.locator('.calls-table:not(.stale) .call-row').count()).toBe(1);
  });

  it('shows sessions with their totals, and one session as a chat', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/sessions`);
    const row = page.locator('.session-row[data-session-id="support-42"]');
    await row.waitFor();
    expect(await row.locator('td').nth(1).textContent()).toBe('2');
    await shot('sessions');
    await row.locator('a').click();
    await page.locator('.chat-turn').nth(1).waitFor();
    const roles = await page
      .locator('.chat-turn .message')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-role')));
    expect(roles).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(await page.locator('.chat-turn .message[data-role="user"]').nth(1).textContent()).toContain(
      'Who keeps it running?',
    );
    await shot('session-chat');
  });

  it('adds the selected calls to a dataset whose rows point back to them', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/traces?op=chat`);
    await page.locator('.call-row').nth(2).waitFor();
    await page.locator('.call-row input[type=checkbox]').nth(0).check();
    await page.locator('.call-row input[type=checkbox]').nth(1).check();
    await page.fill('input[name=dataset-name]', 'picked-chats');
    await page.click('text=Add 2 to dataset');
    await page.locator('.add-to-dataset [role=status]').waitFor();
    expect(await page.locator('.add-to-dataset [role=status]').textContent()).toContain('has 2 rows');
    await shot('add-to-dataset');
    await page.click('.add-to-dataset [role=status] a');
    await page.locator('[data-section=rows]').getByText('sourceCall').first().waitFor();
  });

  it('compares evaluations with a paired 95% interval per scorer and a lower-is-better switch', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/evals/compare/${runA.id}/${runB.id}`);
    const exact = page.locator('.intervals-table tr[data-scorer="exact_match"]');
    await exact.waitFor();
    expect(await exact.locator('.ci').textContent()).toMatch(/^\[.*, .*\]$/);
    const before = await exact.getAttribute('data-verdict');
    await shot('eval-compare-intervals');
    await exact.locator('input[type=checkbox]').check();
    const after = await exact.getAttribute('data-verdict');
    // Flipping the direction flips a clear verdict and leaves an unclear one unclear.
    expect(after).toBe(before === 'better' ? 'worse' : before === 'worse' ? 'better' : 'unclear');
  });

  it('shows which version carries which label, and moves a label', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/objects/AnswerPrompt`);
    const v1 = page.locator('.version-row[data-version="1"] .label-chip');
    await v1.waitFor();
    expect(await v1.textContent()).toBe('production');
    await page.fill('input[name=label]', 'production');
    await page.click('text=Set on v2');
    await page.locator('.version-row[data-version="2"] .label-chip').waitFor();
    expect(await page.locator('.version-row[data-version="1"] .label-chip').count()).toBe(0);
    await shot('labels');
  });
});
