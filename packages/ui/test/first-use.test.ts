import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EVALUATE_OP } from '@weft/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { flush, op, withAttributes, withSession } from '@weft/sdk';
import { Evaluation } from '@weft/sdk/eval';
import type { TestServer } from '@weft/test-server';
import { ApiSeeder, completeCall } from './support/api-seed.js';
import { artifactsDir } from './support/browser.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const PROJECT = 'first-use';
const QUESTIONS = ['What is a lighthouse?', 'Who keeps it running?', 'Is it still lit?'];
/** A 1×1 PNG, sent inline as a `data:` URL. */
const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const LONG_REPLY = `${'The keeper climbs the stairs at dusk. '.repeat(1_500)}The end.`;

/** What a new user met first in the UI (issue 25, items 17–22), each in real chromium. */
describe('web UI as a new user meets it', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let seeder: ApiSeeder;
  let chatCallId = '';
  let agentTrace = '';
  let interruptedRun = '';
  let resumingRun = '';
  let bed: UiTestBed;

  beforeAll(async () => {
    bed = await startUiTestBed();
    server = bed.server;
    seeder = new ApiSeeder(server.url, PROJECT);
    bed.client(PROJECT);

    // The standard chat handler, `(message, history)`, three turns of one session.
    type Message = { role: string; content: string };
    const chat = op(
      async function chat(message: string, history: Message[]) {
        return `Answer ${history.length / 2 + 1}: ${message.toLowerCase()}`;
      },
      { name: 'chat', onFinish: (c) => (chatCallId = c.id) },
    );
    const history: Message[] = [];
    await withSession('thread-A', async () => {
      for (const question of QUESTIONS) {
        const answer = await chat(question, [...history]);
        history.push({ role: 'user', content: question }, { role: 'assistant', content: answer });
      }
    });

    // Calls with an attribute, to filter by it from the URL.
    // Names are given: a bundler may rename `function plan_call` (esbuild makes `plan_call2`).
    const plan = op(async (tier: string) => tier, { name: 'plan_call' });
    for (const tier of ['pro', 'pro', 'free']) await withAttributes({ plan: tier }, () => plan(tier));

    // An agent whose LLM call has the long op name the OpenAI integration gives it.
    const completion = op(async (prompt: string) => `echo ${prompt}`, {
      name: 'openai.chat.completions.create',
    });
    const agent = op(
      async function agent(task: string) {
        return completion(task);
      },
      {
        name: 'agent',
        displayName: 'agent: summarise the quarterly report for the board, with the numbers',
        onFinish: (c) => (agentTrace = c.traceId),
      },
    );
    await agent('summarise');
    await flush();

    // A session that cost $0.0000143 (what a handful of tokens of a small model costs).
    const t0 = Date.now() - 60_000;
    const cheap = completeCall({
      traceId: randomUUID(),
      parentId: null,
      opName: 'chat',
      startedAt: t0,
      endedAt: t0 + 500,
      summary: { costUsd: 0.0000143 },
    });
    await seeder.calls([{ ...cheap, traceId: cheap.id, sessionId: 'cheap-thread' }]);

    // A session whose turns are OpenAI requests: an image sent, a tool call
    // in the reply, then a reply far past the text preview.
    const toolTurn = completeCall({
      traceId: randomUUID(),
      parentId: null,
      opName: 'chat',
      startedAt: t0,
      endedAt: t0 + 400,
      inputs: {
        request: {
          model: 'gpt-4o-mini',
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'What is the weather here?' },
                { type: 'image_url', image_url: { url: TINY_PNG } },
              ],
            },
          ],
        },
      },
      output: {
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"city":"Brest"}' },
                },
              ],
            },
          },
        ],
      },
    });
    const longTurn = completeCall({
      traceId: randomUUID(),
      parentId: null,
      opName: 'chat',
      startedAt: t0 + 1_000,
      endedAt: t0 + 1_400,
      inputs: { message: 'Tell me everything.', history: [] },
      output: LONG_REPLY,
    });
    await seeder.calls([toolTurn, longTurn].map((c) => ({ ...c, traceId: c.id, sessionId: 'tools-thread' })));

    // An evaluation whose process died (a running run call and the `start`
    // marker it left in its checkpoint), resumed by a second run with the SDK.
    interruptedRun = randomUUID();
    const startedAt = Date.now() - 30_000;
    await seeder.calls([
      {
        type: 'start',
        id: interruptedRun,
        traceId: interruptedRun,
        parentId: null,
        opName: EVALUATE_OP,
        startedAt,
        inputs: { evaluation: 'qa-eval', model: 'model_a', dataset: 'inline', config: { trials: 1 } },
      },
    ]);
    const checkpoint = join(server.dir, 'qa.jsonl');
    await writeFile(
      checkpoint,
      `${JSON.stringify({ run: 'start', callId: interruptedRun, traceId: interruptedRun, parentId: null, startedAt })}\n`,
    );
    const evaluation = new Evaluation({
      name: 'qa-eval',
      dataset: [{ question: 'capital of France?', expected: 'Paris' }],
      scorers: { exact: ({ output, row }) => output === row.expected },
    });
    await evaluation.evaluate(
      async function model_a() {
        return 'Paris';
      },
      { checkpoint, resume: true, progress: false, print: false },
    );
    resumingRun = evaluation.lastRun?.callId ?? '';
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

  it('shows each session turn’s own question above its answer for a (message, history) handler', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/sessions/thread-A`);
    const turns = page.locator('li.chat-turn');
    await expect.poll(() => turns.count()).toBe(3);
    for (const [i, question] of QUESTIONS.entries()) {
      const turn = turns.nth(i);
      expect(await turn.locator('[data-role="user"] .part-text').textContent()).toBe(question);
      expect(await turn.locator('[data-role="assistant"] .part-text').textContent()).toBe(
        `Answer ${i + 1}: ${question.toLowerCase()}`,
      );
    }
  });

  it('shows a session turn’s image, tool call and long reply as the call view does', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/sessions/tools-thread`);
    const turns = page.locator('li.chat-turn');
    await expect.poll(() => turns.count()).toBe(2);
    const asked = turns.nth(0).locator('[data-role="user"]');
    expect(await asked.locator('.part-text').textContent()).toBe('What is the weather here?');
    expect(await asked.locator('img.part-image').getAttribute('src')).toBe(TINY_PNG);
    const card = turns.nth(0).locator('[data-role="assistant"] .tool-call');
    expect(await card.getAttribute('data-tool')).toBe('get_weather');
    expect(await card.locator('.tool-args').textContent()).toContain('Brest');
    const reply = turns.nth(1).locator('[data-role="assistant"] .part-text');
    expect(await reply.textContent()).not.toContain('The end.');
    await reply.locator('button.show-all').click();
    expect(await reply.textContent()).toContain('The end.');
  });

  it('shows a session’s cost with three significant digits, as every cost', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/sessions`);
    const row = page.locator('tr.session-row[data-session-id="cheap-thread"]');
    await row.waitFor();
    expect(await row.locator('td.col-cost').textContent()).toBe('$0.0000143');
  });

  it('draws the feedback thumbs as icons that ship with the UI, not emoji', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/calls/${chatCallId}`);
    const up = page.getByRole('button', { name: 'Thumbs up' });
    const down = page.getByRole('button', { name: 'Thumbs down' });
    await up.waitFor();
    for (const button of [up, down]) {
      expect(await button.locator('svg').count()).toBe(1);
      // No pictograph that needs an emoji font (👍 is U+1F44D).
      expect(await button.textContent()).not.toMatch(/\p{Extended_Pictographic}/u);
    }
    await up.click();
    const given = page.locator('.feedback-list li[data-feedback-name="thumbs"]');
    await given.waitFor();
    expect(await given.locator('svg').count()).toBe(1);
    expect(await given.textContent()).not.toMatch(/\p{Extended_Pictographic}/u);
    expect(await given.textContent()).toContain('thumbs up');
  });

  it('fits the traces table in a 900 px window, Started column included', async () => {
    await page.setViewportSize({ width: 900, height: 800 });
    await page.goto(`${server.url}/#/${PROJECT}/traces`);
    const started = page.locator('tr.call-row td.col-time').first();
    await started.waitFor();
    await page.screenshot({ path: join(artifactsDir(), 'traces-900.png') });
    const wrap = await page.locator('.table-wrap').first().boundingBox();
    const cell = await started.boundingBox();
    // The Started column is in view, inside the table's frame.
    expect(cell!.x + cell!.width).toBeLessThanOrEqual(wrap!.x + wrap!.width + 0.5);
    expect(cell!.x + cell!.width).toBeLessThanOrEqual(900);
  });

  it('shows whole op names in the trace tree in a 900 px window', async () => {
    await page.setViewportSize({ width: 900, height: 800 });
    await page.goto(`${server.url}/#/${PROJECT}/trace/${agentTrace}`);
    const op = page.locator('[role="treeitem"][data-op="openai.chat.completions.create"] .tt-op');
    await op.waitFor();
    // The op name is shown whole, not cut to "openai.chat.com…".
    expect(await op.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.screenshot({ path: join(artifactsDir(), 'trace-900.png') });
  });

  it('filters by an attrs URL parameter written as a chip, and says when one cannot be read', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/traces?op=plan_call&attrs=plan%3Dpro`);
    const rows = page.locator('tr.call-row');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.locator('.chip[data-attribute="plan"]').textContent()).toContain('plan=pro');

    await page.goto(`${server.url}/#/${PROJECT}/traces?op=plan_call&attrs=plan`);
    await expect.poll(() => page.locator('[data-invalid="attrs"]').textContent()).toContain('“plan”');
    await expect.poll(() => rows.count()).toBe(3);
  });

  it('lists an interrupted evaluation with its name and model, linked to the run that resumed it and back', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/evals`);
    const crashed = page.locator(`tr.run-row[data-call-id="${interruptedRun}"]`);
    const resumed = page.locator(`tr.run-row[data-call-id="${resumingRun}"]`);
    await crashed.waitFor();
    expect(await crashed.locator('td.run-name').textContent()).toBe('qa-eval');
    expect(await crashed.locator('td.run-model').textContent()).toBe('model_a');
    expect(await crashed.locator('td.col-status').textContent()).toBe('interrupted');
    expect(await crashed.locator('a.resumed-by').getAttribute('href')).toBe(
      `#/${PROJECT}/calls/${resumingRun}`,
    );
    expect(await resumed.locator('a.resumes').getAttribute('href')).toBe(
      `#/${PROJECT}/calls/${interruptedRun}`,
    );
  });
});
