import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '@weft/test-server';
import { ApiSeeder, type SeededRun } from './support/api-seed.js';
import { artifactsDir } from './support/browser.js';
import { seedEvaluations } from './support/seed-evaluations.js';
import { QUESTIONS, type SeededProgram, SYSTEM_PROMPT_V2, seedProgram } from './support/seed-program.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const PROJECT = 'demo';

describe('web UI end to end', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let program: SeededProgram;
  let runA: SeededRun;
  let runB: SeededRun;
  let bed: UiTestBed;
  const shot = (name: string) => page.screenshot({ path: join(artifactsDir(), `${name}.png`) });

  beforeAll(async () => {
    bed = await startUiTestBed();
    server = bed.server;
    const seeder = new ApiSeeder(server.url, PROJECT);
    // Everything is recorded by the weft SDK: a traced program, then two
    // evaluation runs with the SDK's runner.
    bed.client(PROJECT);
    program = await seedProgram();
    ({ runA, runB } = await seedEvaluations(seeder));
    browser = await bed.browser();
  });

  // A fresh page per test: a hash-only goto would keep the last test's view mounted.
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  });
  afterEach(async () => {
    await page.close();
  });

  afterAll(() => bed?.close());

  it('lists root calls and filters them by op and status', async () => {
    // `/?project=` (what a CLI can print) opens that project's calls.
    await page.goto(`${server.url}/?project=${PROJECT}`);
    expect(page.url()).toBe(`${server.url}/#/${PROJECT}/traces`);
    const rows = page.locator('tr.call-row');
    // 5 answer_question roots, 1 summarize, 2 evaluation runs.
    await expect.poll(() => rows.count()).toBe(8);
    await shot('calls');
    // Placeholders hold the table's place while it loads: no layout shift.
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            let total = 0;
            for (const entry of list.getEntries()) total += (entry as unknown as { value: number }).value;
            resolve(total);
          }).observe({ type: 'layout-shift', buffered: true });
          // The observer reports buffered entries at once; with none it never calls back.
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(0)));
        }),
    );
    expect(shift).toBeLessThan(0.05);

    await page.fill('input[name="op"]', 'answer_question');
    await page.press('input[name="op"]', 'Enter');
    await expect.poll(() => rows.count()).toBe(5);
    expect(await page.locator('tr.call-row td.col-op').allTextContents()).toEqual(
      Array(5).fill('answer_question'),
    );

    await page.selectOption('select[name="status"]', 'error');
    await expect.poll(() => page.locator('tr.empty-row').count()).toBe(1);

    await page.fill('input[name="op"]', '');
    await page.press('input[name="op"]', 'Enter');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-call-id')).toBe(program.errorTrace);
    expect(page.url()).toContain('status=error');

    // Text search in display names, then server-side sort by latency.
    await page.goto(`${server.url}/#/${PROJECT}/traces`);
    await expect.poll(() => rows.count()).toBe(8);
    await page.fill('input[name="q"]', 'SPIDER');
    await page.press('input[name="q"]', 'Enter');
    await expect.poll(() => rows.count()).toBe(1);
    // The name, then the search's highlighted passage below it.
    expect(await rows.first().locator('td.col-name .call-name').textContent()).toBe(
      `answer: ${QUESTIONS[1].question}`,
    );
    expect(await rows.first().locator('td.col-name .snippet mark').first().textContent()).toBe('spider');
    await page.fill('input[name="q"]', '');
    await page.press('input[name="q"]', 'Enter');
    await expect.poll(() => rows.count()).toBe(8);
    await page.getByRole('button', { name: 'Latency' }).click();
    await expect.poll(() => page.locator('th[aria-sort="descending"]').textContent()).toContain('Latency');
    // Slowest first: the evaluation runs (hundreds of ms) lead, the failed summarize (~0 ms) is last.
    await expect.poll(() => rows.last().getAttribute('data-call-id')).toBe(program.errorTrace);
  });

  it('opens a trace, expands the tree, shows a call’s inputs and follows a ref to its object', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/traces?op=answer_question`);
    const first = page.locator('tr.call-row').first();
    await first.waitFor();
    // Keyboard: focus the first row and open it with Enter.
    await first.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/demo\/trace\//);
    const tree = page.locator('[role="tree"]');
    await tree.waitFor();
    const items = page.locator('[role="treeitem"]');
    // Root open by default: answer_question, retrieve, generate.
    await expect.poll(() => items.count()).toBe(3);
    expect(await page.locator('[role="treeitem"][data-op="llm.chat"]').count()).toBe(0);

    await page.click('[role="treeitem"][data-op="generate"] .tt-toggle');
    await expect.poll(() => items.count()).toBe(4);
    const chat = page.locator('[role="treeitem"][data-op="llm.chat"]');
    expect(await chat.getAttribute('aria-level')).toBe('3');
    await chat.click();

    const detail = page.locator('.call-detail');
    await expect.poll(() => detail.locator('h2').textContent()).toBe('llm.chat');
    // A model call reads as its conversation: the user's question, the model in the header.
    const conversation = detail.locator('.conversation');
    const newest = QUESTIONS[QUESTIONS.length - 1]!.question;
    await expect
      .poll(() => conversation.locator('li.message[data-role="user"]').textContent())
      .toContain(newest);
    expect(await detail.locator('.call-model').textContent()).toContain('gpt-4o-mini');
    await shot('trace');

    // Keyboard in the tree: ↑ selects generate, ← collapses it, ← again goes
    // to the root; ↓↓ back to generate, → expands, → enters llm.chat.
    await tree.focus();
    const title = () => detail.locator('h2').textContent();
    await page.keyboard.press('ArrowUp');
    await expect.poll(title).toBe('generate');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => items.count()).toBe(3);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(title).toContain('answer: ');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(title).toBe('generate');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => items.count()).toBe(4);
    await page.keyboard.press('ArrowRight');
    await expect.poll(title).toBe('llm.chat');

    // The raw inputs, one click away, hold the prompt's ref.
    await detail.getByRole('button', { name: 'Raw JSON' }).click();
    const inputs = detail.locator('[data-section="inputs"]');
    const ref = inputs.locator(`a.ref-link[data-ref="${program.promptRef}"]`);
    await ref.click();
    await page.waitForURL(/#\/demo\/objects\/system-prompt\?v=/);
    const value = page.locator('[data-section="value"]');
    await expect.poll(() => value.textContent()).toContain(SYSTEM_PROMPT_V2);
    expect(await page.locator('tr.version-row').count()).toBe(2);
    expect(await page.locator('tr.version-row.selected').getAttribute('data-version')).toBe('2');
    await shot('object');
  });

  it('shows an error call’s exception with its stack', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/trace/${program.errorTrace}`);
    const exception = page.locator('[data-section="exception"]');
    await expect.poll(() => exception.textContent()).toContain('RateLimitError');
    expect(await exception.locator('pre.stack').textContent()).toMatch(/at .*summarize/);
    // The long input string is folded.
    const fold = page.locator('[data-section="inputs"] .link-button');
    expect(await fold.textContent()).toMatch(/show all 840 chars/);
    await fold.click();
    await expect.poll(() => fold.textContent()).toBe('fold');
    expect(await page.locator('[data-section="inputs"] .json-string').textContent()).toContain(
      'Q3 revenue grew 12%. '.repeat(40).trimEnd(),
    );

    // The call's own page, where call refs lead, links back to its trace.
    await page.locator('.call-detail .facts a', { hasText: program.errorTrace }).click();
    await page.waitForURL(new RegExp(`#/demo/calls/${program.errorTrace}$`));
    const trace = page.locator('.call-detail .facts a[href*="/trace/"]');
    await trace.waitFor();
    await trace.click();
    await page.waitForURL(new RegExp(`#/demo/trace/${program.errorTrace}`));

    // An unknown call says so, with the server's message.
    await page.goto(`${server.url}/#/${PROJECT}/calls/00000000-0000-7000-8000-000000000000`);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('No call 00000000-0000-7000-8000-000000000000');
  });

  it('diffs two object versions and pages a dataset’s rows', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/objects`);
    await page.locator('tr.object-row[data-name="system-prompt"]').click();
    await page.locator('input[aria-label="Compare with v1"]').check();
    const diff = page.locator('[data-section="diff"]');
    await expect.poll(() => diff.locator('tbody tr').count()).toBe(2);
    expect(await diff.textContent()).toContain('temperature');

    // Datasets are listed as datasets, with their row counts.
    await page.goto(`${server.url}/#/${PROJECT}/datasets`);
    const listed = page.locator('tr.dataset-list-row[data-name="qa-dataset"]');
    await listed.waitFor();
    expect(await listed.locator('td.col-num').first().textContent()).toBe(String(QUESTIONS.length));
    expect(await page.locator('tr.dataset-list-row[data-name="system-prompt"]').count()).toBe(0);
    await listed.click();
    await page.waitForURL(/#\/demo\/objects\/qa-dataset/);
    await page.goto(`${server.url}/#/${PROJECT}/objects/qa-dataset`);
    const rows = page.locator('[data-section="rows"] tr.dataset-row');
    await expect.poll(() => rows.count()).toBe(QUESTIONS.length);
    expect(await rows.first().textContent()).toContain(QUESTIONS[0].question);
    // Columns in the order the rows were written (question, expected), not the canonical rows' sorted keys.
    expect(await page.locator('[data-section="rows"] thead th').allTextContents()).toEqual([
      '#',
      'question',
      'expected',
    ]);
    expect(await page.locator('[data-section="rows"] .pager-label').textContent()).toBe('Rows 1–5 of 5');
    await shot('dataset');

    // The table ref in the value opens the table on its own page.
    await page.locator('[data-section="value"] a.ref-link').click();
    await page.waitForURL(/#\/demo\/tables\//);
    await expect.poll(() => page.locator('tr.dataset-row').count()).toBe(QUESTIONS.length);
  });

  it('compares two evaluation runs: summary deltas and changed rows linking to traces', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/evals`);
    const runRows = page.locator('tr.run-row');
    await expect.poll(() => runRows.count()).toBe(2);
    await page.locator(`tr.run-row[data-call-id="${runA.id}"] input[type="checkbox"]`).check();
    await page.locator(`tr.run-row[data-call-id="${runB.id}"] input[type="checkbox"]`).check();
    await page.getByRole('button', { name: /Compare 2\/2/ }).click();
    await page.waitForURL(new RegExp(`#/demo/evals/compare/${runA.id}/${runB.id}`));

    const passRate = page.locator('tr[data-metric="exact_match"]');
    await passRate.waitFor();
    // A passes 3/5, B 4/5; three rows flipped.
    expect(await passRate.locator('td').nth(3).textContent()).toBe('+20 pts');
    expect(await passRate.locator('td').nth(3).getAttribute('class')).toContain('delta-better');
    const p95 = page.locator('tr[data-metric="latency p95"] td').nth(3);
    // Latencies are real here, so only their presence is checked.
    expect(await p95.textContent()).toMatch(/ ms$/);
    const changed = page.locator('tr.compare-row');
    await expect.poll(() => changed.count()).toBe(3);
    expect(await changed.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-index')))).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect(await changed.first().textContent()).toContain('fail → pass');
    // Rows are numbered from 1; a fixed row is marked better, a broken one worse, with both outputs.
    expect(await changed.first().locator('td').first().textContent()).toBe('2');
    expect(await changed.first().getAttribute('data-direction')).toBe('better');
    expect(await changed.nth(2).getAttribute('data-direction')).toBe('worse');
    expect(await changed.nth(2).locator('td.output-b').textContent()).toBe('212');
    expect(await changed.nth(2).locator('td.col-output').first().textContent()).toBe('100');
    expect(await changed.nth(2).textContent()).toContain('pass → fail');
    await shot('compare');

    await changed.nth(2).locator('a.trace-link', { hasText: 'B' }).click();
    await page.waitForURL(new RegExp(`#/demo/trace/${runB.traceId}\\?call=${runB.rowCallIds[3]}`));
    const detail = page.locator('.call-detail');
    await expect.poll(() => detail.getAttribute('data-call-id')).toBe(runB.rowCallIds[3]);
    expect(await detail.locator('[data-section="output"]').textContent()).toContain('212');
  });
});
