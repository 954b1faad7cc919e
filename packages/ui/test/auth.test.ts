import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@weft/test-server';
import { ApiSeeder, completeCall } from './support/api-seed.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const TOKEN = 's3cret-token-for-the-ui';

describe('web UI with auth on', () => {
  let server: TestServer;
  let browser: Browser;
  let bed: UiTestBed;

  beforeAll(async () => {
    bed = await startUiTestBed({ token: TOKEN });
    server = bed.server;
    const seeder = new ApiSeeder(server.url, 'secured', TOKEN);
    const id = crypto.randomUUID();
    await seeder.calls([
      completeCall({
        id,
        traceId: id,
        parentId: null,
        opName: 'guarded_op',
        displayName: 'only with the token',
        startedAt: Date.now() - 1_000,
        endedAt: Date.now(),
      }),
    ]);
    browser = await bed.browser();
  });

  afterAll(() => bed?.close());

  it('asks for the token, shows the data once given, and keeps it for the session', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // The API refuses a request without the token: the UI must ask, not show data.
    const unauthorized = page.waitForResponse(
      (r) => r.url().endsWith('/v1/calls/query') && r.status() === 401,
    );
    await page.goto(`${server.url}/#/secured/traces`);
    await unauthorized;
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await page.locator('tr.call-row').count()).toBe(0);

    // A wrong token is refused and the prompt says so.
    await page.fill('input[name="token"]', 'wrong');
    await page.press('input[name="token"]', 'Enter');
    await expect.poll(() => dialog.getByRole('alert').count()).toBe(1);
    expect(await page.locator('tr.call-row').count()).toBe(0);

    await page.fill('input[name="token"]', TOKEN);
    await page.press('input[name="token"]', 'Enter');
    await page.locator('tr.call-row').waitFor();
    expect(await page.locator('tr.call-row td.col-name').textContent()).toBe('only with the token');
    expect(await dialog.count()).toBe(0);

    // Same session, new page load: no prompt, data shows.
    await page.reload();
    await page.locator('tr.call-row').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem('weft.token'))).toBe(TOKEN);
    await context.close();
  });
});
