import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '@weft/test-server';
import { ApiSeeder, type SeededRun } from './support/api-seed.js';
import { seriousViolations } from './support/axe.js';
import { docsShot } from './support/browser.js';
import { type FakeProvider, startFakeProvider } from './support/fake-provider.js';
import { type RecordedCalls, recordLlmCalls } from './support/record-llm-calls.js';
import { seedEvaluations } from './support/seed-evaluations.js';
import { type SeededProgram, seedProgram } from './support/seed-program.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const PROJECT = 'a11y';

/**
 * Every view, in real chromium, checked by axe-core (no serious or critical
 * WCAG A/AA violation) and photographed for docs/ui.md.
 */
describe('every view is accessible', () => {
  let server: TestServer;
  let provider: FakeProvider;
  let browser: Browser;
  let page: Page;
  let program: SeededProgram;
  let runA: SeededRun;
  let runB: SeededRun;
  let recorded: RecordedCalls;
  let bed: UiTestBed;

  beforeAll(async () => {
    provider = await startFakeProvider();
    bed = await startUiTestBed({
      playgroundProviders: [
        { id: 'openai', kind: 'openai', baseUrl: `${provider.url}/v1`, apiKey: 'sk-a11y' },
      ],
    });
    server = bed.server;
    bed.defer(() => provider.close());
    const seeder = new ApiSeeder(server.url, PROJECT);
    bed.client(PROJECT);
    program = await seedProgram();
    ({ runA, runB } = await seedEvaluations(seeder));
    recorded = await recordLlmCalls(provider, seeder, server.url);
    browser = await bed.browser();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  });
  afterEach(async () => {
    await page.close();
  });
  afterAll(() => bed?.close());

  const views: [name: string, path: () => string, ready: string][] = [
    ['projects', () => '#/', 'table.project-list td[data-stat="calls-week"]:not(:empty)'],
    ['traces', () => `#/${PROJECT}/traces`, 'tr.call-row'],
    ['calls', () => `#/${PROJECT}/calls`, '.call-totals [data-total="count"]'],
    ['trace', () => `#/${PROJECT}/trace/${program.answerTraces[0]}`, '.call-detail'],
    ['conversation', () => `#/${PROJECT}/calls/${recorded['openai-chat-tools'].id}`, '.conversation'],
    ['error-call', () => `#/${PROJECT}/trace/${program.errorTrace}`, '[data-section="exception"]'],
    ['sessions', () => `#/${PROJECT}/sessions`, 'table.sessions-table'],
    ['objects', () => `#/${PROJECT}/objects`, 'tr.object-row'],
    ['object', () => `#/${PROJECT}/objects/system-prompt`, '[data-section="value"]'],
    ['datasets', () => `#/${PROJECT}/datasets`, 'tr.dataset-list-row'],
    ['dataset', () => `#/${PROJECT}/objects/qa-dataset`, 'tr.dataset-row'],
    ['evals', () => `#/${PROJECT}/evals`, 'tr.run-row'],
    ['compare', () => `#/${PROJECT}/evals/compare/${runA.id}/${runB.id}`, 'tr.compare-row'],
    [
      'playground-view',
      () => `#/${PROJECT}/playground?call=${recorded['openai-chat-tools'].id}`,
      'section.variant',
    ],
  ];
  for (const [name, path, ready] of views) {
    it(`${name}: no serious or critical axe violation`, async () => {
      await page.goto(`${server.url}/${path()}`);
      await page.locator(ready).first().waitFor();
      await docsShot(page, `view-${name}`);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
