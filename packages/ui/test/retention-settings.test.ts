import { routes } from '@weft/protocol';
import type { TestServer } from '@weft/test-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSeeder, completeCall } from './support/api-seed.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

/*
 * The project settings page's retention section (issue 28): it says what is
 * in force and where it comes from, and changes it through the API.
 */
describe('project settings: retention', () => {
  let server: TestServer;
  let browser: Browser;
  let bed: UiTestBed;

  beforeAll(async () => {
    bed = await startUiTestBed({
      retentionDays: 30,
    });
    server = bed.server;
    const id = crypto.randomUUID();
    await new ApiSeeder(server.url, 'kept').calls([
      completeCall({
        id,
        traceId: id,
        parentId: null,
        opName: 'op',
        startedAt: Date.now() - 10,
        endedAt: Date.now(),
      }),
    ]);
    browser = await bed.browser();
  });

  afterAll(() => bed?.close());

  async function stored(): Promise<unknown> {
    return (await fetch(new URL(routes.projectSettings('kept'), server.url))).json();
  }

  it("shows the server's default, sets days and 'until deleted', and refuses 0 days", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/#/kept/settings`);
    const inForce = page.locator('.retention-in-force');
    await expect.poll(() => inForce.textContent()).toContain("30 days (the server's default");

    await page.getByLabel('days', { exact: true }).fill('0');
    expect(await page.getByRole('button', { name: 'Save retention' }).isDisabled()).toBe(true);
    await page.getByLabel('days', { exact: true }).fill('7');
    await page.getByRole('button', { name: 'Save retention' }).click();
    await expect.poll(() => inForce.textContent()).toContain('7 days (set for this project');
    expect(await stored()).toMatchObject({ retentionDays: 7, effectiveRetentionDays: 7 });

    await page.getByLabel('until deleted').check();
    await page.getByRole('button', { name: 'Save retention' }).click();
    await expect.poll(() => inForce.textContent()).toContain('kept until deleted (set for this project');
    expect(await stored()).toMatchObject({ retentionDays: null, effectiveRetentionDays: null });

    await page.getByLabel("as the server's default").check();
    await page.getByRole('button', { name: 'Save retention' }).click();
    await expect.poll(() => inForce.textContent()).toContain("30 days (the server's default");
    await page.close();
  });
});
