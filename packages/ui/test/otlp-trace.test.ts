import { callIdOfSpan, routes, traceIdOfOtel } from '@weft/protocol';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@weft/test-server';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

// A 10,000-span trace sent over OTLP/HTTP (JSON), children in earlier
// requests than their parents, renders in the virtualized trace tree.

const SPANS = 10_000;
const PER_REQUEST = 2_500;
const TRACE = '0195f3a27c1d7a008f3e1b2c3d4e5f60';
const spanIdOf = (n: number) => (n + 1).toString(16).padStart(16, '0');

/** Span n: a root, 99 agent steps under it, the rest tool calls spread over the steps. */
function span(n: number) {
  const parent = n === 0 ? undefined : n < 100 ? 0 : 1 + (n % 99);
  const start = 1_700_000_000_000_000_000n + BigInt(n) * 1_000_000n;
  return {
    traceId: TRACE,
    spanId: spanIdOf(n),
    ...(parent === undefined ? {} : { parentSpanId: spanIdOf(parent) }),
    name: n === 0 ? 'agent' : n < 100 ? 'step' : 'tool',
    kind: 1,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 500_000n),
    attributes: [{ key: 'n', value: { intValue: String(n) } }],
  };
}

describe('a 10,000-span OTLP trace', () => {
  let server: TestServer;
  let browser: Browser;
  let bed: UiTestBed;

  beforeAll(async () => {
    bed = await startUiTestBed();
    server = bed.server;
    // Last spans first: every child arrives before its parent.
    for (let end = SPANS; end > 0; end -= PER_REQUEST) {
      const spans = Array.from({ length: PER_REQUEST }, (_, i) => span(end - PER_REQUEST + i));
      const request = { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] };
      const response = await fetch(new URL(routes.otlpTraces(), server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-weft-project': 'otlp' },
        body: JSON.stringify(request),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({});
    }
    browser = await bed.browser();
  });

  afterAll(() => bed?.close());

  it('opens at its last span and renders all 10,000 rows virtualized', async () => {
    const last = callIdOfSpan(TRACE, spanIdOf(SPANS - 1));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/#/otlp/trace/${traceIdOfOtel(TRACE)}?call=${last}`);
    const tree = page.locator('[role="tree"]');
    await tree.waitFor();
    await expect
      .poll(() => page.locator('.call-detail').getAttribute('data-call-id'), { timeout: 30_000 })
      .toBe(last);
    expect(await page.locator(`[role="treeitem"][data-call-id="${last}"]`).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Expand all' }).click();
    await expect.poll(() => tree.getAttribute('data-row-count')).toBe(String(SPANS));
    const inDom = await page.locator('[role="treeitem"]').count();
    expect(inDom).toBeGreaterThan(10);
    expect(inDom).toBeLessThan(100);
    await page.close();
  }, 60_000); // its first render may take the poll's 30 s, past the test default
});
