import { randomUUID } from 'node:crypto';
import type { CallItem } from '@weft/protocol';
import { callsOfTraceColumns, type TraceColumns } from '@weft/protocol/trace';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@weft/test-server';
import { ApiSeeder, completeCall } from './support/api-seed.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const CALLS = 25_001;
const ROOT_QUESTION = 'which tools answer the longest question of all';

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
        inputs: { question: ROOT_QUESTION },
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

  it('loads in one light read and reads the selected call whole when shown', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const reads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/'))
        reads.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    const traceRead = page.waitForResponse(
      (r) => new URL(r.url()).pathname === `/v1/traces/huge/${traceId}/calls`,
    );
    await page.goto(`${server.url}/#/huge/trace/${traceId}`);
    const response = await traceRead;
    // The light read, as columns: each field one array, decoded back to calls without values.
    expect(new URL(response.url()).search).toBe('?layout=columns');
    const light = callsOfTraceColumns((await response.json()) as TraceColumns);
    expect(light).toHaveLength(CALLS);
    expect(light[0]).toMatchObject({ id: traceId, inputs: {} });
    await expect
      .poll(() => page.locator('.live-indicator').textContent(), { timeout: 60_000 })
      .toBe('25,001 calls');
    expect(await page.locator('[role="tree"]').getAttribute('data-row-count')).toBe(String(CALLS));
    // The root is selected: its inputs, which the light read left out, are shown.
    await page.getByText(ROOT_QUESTION).first().waitFor();
    expect(reads.filter((r) => r.includes('/v1/calls/query'))).toEqual([]);
    expect(reads.filter((r) => r.startsWith(`GET /v1/calls/huge/${traceId}`))).toHaveLength(1);
    await page.close();
  }, 90_000);
});
