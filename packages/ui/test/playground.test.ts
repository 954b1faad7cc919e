import type { Browser, Page, Response } from 'playwright-core';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { flush, op, publish } from '@weft/sdk';
import { wrapOpenAI } from '@weft/sdk/openai';
import type { TestServer } from '@weft/test-server';
import { ApiSeeder } from './support/api-seed.js';
import { docsShot } from './support/browser.js';
import { type FakeProvider, openaiError, rateLimited, startFakeProvider } from './support/fake-provider.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const PROJECT = 'play';
const RUNS = 'play-runs';
/** Keys the server holds; the browser must never see them. */
const OPENAI_KEY = 'sk-weft-secret-openai-0123456789';
const ANTHROPIC_KEY = 'sk-ant-weft-secret-9876543210';

type Found = {
  id: string;
  opName: string;
  status: string;
  summary: { costUsd?: number } | null;
  inputs: Record<string, unknown>;
};

describe('the playground', () => {
  let server: TestServer;
  let provider: FakeProvider;
  let browser: Browser;
  let page: Page;
  let seeder: ApiSeeder;
  let tracedCall = '';
  let seen: { url: string; text: string }[] = [];
  let bodies: Promise<unknown>[] = [];
  let bed: UiTestBed;

  beforeAll(async () => {
    provider = await startFakeProvider();
    bed = await startUiTestBed({
      playgroundProviders: [
        { id: 'openai', kind: 'openai', baseUrl: `${provider.url}/v1`, apiKey: OPENAI_KEY },
        { id: 'anthropic', kind: 'anthropic', baseUrl: provider.url, apiKey: ANTHROPIC_KEY },
      ],
    });
    server = bed.server;
    bed.defer(() => provider.close());
    seeder = new ApiSeeder(server.url, PROJECT);
    const client = bed.client(PROJECT);
    // A model call traced by the SDK's OpenAI wrapper, to take into the playground.
    const openai = wrapOpenAI(
      new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0 }),
    );
    provider.enqueue({ kind: 'completion', completion: { text: 'Bonjour.' } });
    await op(
      () =>
        openai.chat.completions.create({
          model: 'gpt-4o',
          temperature: 0.3,
          messages: [
            { role: 'system', content: 'Translate to French.' },
            { role: 'user', content: 'Good morning.' },
          ],
          tools: [
            {
              type: 'function',
              function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
            },
          ],
        }),
      { name: 'translate' },
    )();
    const v1 = await publish(
      { messages: [{ role: 'system', content: 'You answer support tickets.' }], model: 'gpt-4o-mini' },
      { name: 'support-prompt' },
    );
    await client.setLabel(v1, 'production');
    await flush();
    const { calls } = await seeder.post<{ calls: Found[] }>('/v1/calls/query', {
      project: PROJECT,
      opName: 'openai.chat.completions.create',
    });
    tracedCall = calls[0]!.id;
    // A second project to trace runs into.
    await new ApiSeeder(server.url, RUNS).post('/v1/objects', {
      project: RUNS,
      name: 'placeholder',
      digest: (await import('@weft/protocol')).digestValue({ a: 1 }),
      value: { a: 1 },
    });
    browser = await bed.browser();
  });

  // Every response the page receives, headers and body, to look for the keys in.
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    seen = [];
    bodies = [];
    page.on('response', (response: Response) => {
      const entry = { url: response.url(), text: JSON.stringify(response.headers()) };
      seen.push(entry);
      bodies.push(
        response.body().then(
          (body) => (entry.text += body.toString('utf8')),
          () => {},
        ),
      );
    });
  });
  afterEach(async () => {
    await Promise.all(bodies);
    await page.close();
    expect(seen.length).toBeGreaterThan(0);
    for (const { url, text } of seen) {
      expect(text, url).not.toContain(OPENAI_KEY);
      expect(text, url).not.toContain(ANTHROPIC_KEY);
    }
  });
  afterAll(() => bed?.close());

  const callsIn = async (project: string) =>
    (
      await new ApiSeeder(server.url, project).post<{ calls: Found[] }>('/v1/calls/query', {
        project,
        opName: 'playground.run',
      })
    ).calls;

  it('opens a traced call, streams a run of it, and traces the run with usage and cost in the project picked', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/calls/${tracedCall}`);
    await page.getByRole('link', { name: 'Open in playground' }).click();
    const variant = page.locator('section.variant[data-variant="1"]');
    await variant.waitFor();
    expect(await variant.locator('input[name="model"]').inputValue()).toBe('gpt-4o');
    expect(await variant.locator('input[name="temperature"]').inputValue()).toBe('0.3');
    expect(
      await variant
        .locator('textarea')
        .evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value)),
    ).toEqual(['Translate to French.', 'Good morning.']);
    expect(await variant.locator('.tools-line').textContent()).toContain('get_weather');
    await variant.getByRole('textbox', { name: 'Message 2 (user)' }).fill('Good evening.');
    await page.selectOption('select[name="target-project"]', RUNS);

    provider.enqueue({
      kind: 'completion',
      completion: {
        text: 'Bonsoir, comment allez-vous ?',
        usage: { inputTokens: 1_000, outputTokens: 100 },
        chunkChars: 4,
      },
    });
    await variant.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => variant.locator('.run-text').textContent()).toBe('Bonsoir, comment allez-vous ?');
    await variant.locator('.run-facts').waitFor();
    expect(await variant.locator('.run-facts').textContent()).toMatch(/1,000 in · 100 out · \$0\.\d+/);
    // The server asked the provider for a stream, and answered the browser as one.
    const sent = provider.requests.at(-1)!;
    expect(sent.body).toMatchObject({ model: 'gpt-4o', stream: true, temperature: 0.3 });
    expect(sent.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect((sent.body as { messages: { content: string }[] }).messages.at(-1)?.content).toBe('Good evening.');
    expect(seen.find((r) => r.url.endsWith('/v1/playground/run'))?.text).toContain('application/x-ndjson');

    const runs = await callsIn(RUNS);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'success' });
    expect(runs[0]!.summary?.costUsd).toBeGreaterThan(0);
    await variant.getByRole('link', { name: 'traced call' }).click();
    const reply = page.locator('.conversation li.message-output');
    await expect.poll(() => reply.textContent()).toContain('Bonsoir, comment allez-vous ?');
    expect(await page.locator('.call-model').textContent()).toBe('gpt-4o · openai');
  });

  it('shows a tool call the model makes, with its arguments', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/playground?call=${tracedCall}`);
    const variant = page.locator('section.variant[data-variant="1"]');
    await variant.waitFor();
    provider.enqueue({
      kind: 'completion',
      completion: { toolCalls: [{ id: 'call_play', name: 'get_weather', arguments: '{"city":"Lyon"}' }] },
    });
    await variant.getByRole('button', { name: 'Run', exact: true }).click();
    const call = variant.locator('.run-output .tool-call[data-tool="get_weather"]');
    await expect.poll(() => call.locator('.tool-args').textContent()).toBe('{"city":"Lyon"}');
    expect(await call.locator('.tool-id').textContent()).toBe('call_play');
    expect((provider.requests.at(-1)!.body as { tools: unknown[] }).tools).toHaveLength(1);
  });

  it('runs four variants side by side, OpenAI-compatible and Anthropic', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/playground?call=${tracedCall}`);
    await page.locator('section.variant[data-variant="1"]').waitFor();
    const add = page.getByRole('button', { name: 'Add variant' });
    for (let i = 0; i < 3; i++) await add.click();
    expect(await add.isDisabled()).toBe(true);
    const models = ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1-mini', 'claude-sonnet-4-20250514'];
    for (const [i, model] of models.entries()) {
      const v = page.locator(`section.variant[data-variant="${i + 1}"]`);
      if (model.startsWith('claude')) await v.locator('select[name="provider"]').selectOption('anthropic');
      await v.locator('input[name="model"]').fill(model);
    }
    const before = provider.requests.length;
    await page.getByRole('button', { name: 'Run all 4' }).click();
    for (const i of [1, 2, 3, 4]) {
      await expect
        .poll(() => page.locator(`section.variant[data-variant="${i}"] .run-text`).textContent())
        .toBe('Hello from the fake provider.');
    }
    await docsShot(page, 'playground');
    const sent = provider.requests.slice(before);
    expect(sent.map((r) => (r.body as { model: string }).model).sort()).toEqual([...models].sort());
    const anthropic = sent.find((r) => r.path === '/v1/messages')!;
    expect(anthropic.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(anthropic.body).toMatchObject({ system: 'Translate to French.', stream: true });
  });

  it('shows a provider’s 429 and 500, and traces the failed runs', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/playground?call=${tracedCall}`);
    const variant = page.locator('section.variant[data-variant="1"]');
    await variant.waitFor();
    const run = variant.getByRole('button', { name: 'Run', exact: true });
    const alert = variant.locator('.run-output [role="alert"]');
    provider.enqueue(rateLimited('openai'));
    await run.click();
    await expect
      .poll(() => alert.textContent())
      .toContain('openai answered 429: Rate limit reached for requests');
    provider.enqueue(openaiError(500, { message: 'The server had an error', type: 'server_error' }));
    await run.click();
    await expect.poll(() => alert.textContent()).toContain('openai answered 500: The server had an error');
    const failed = (await callsIn(PROJECT)).filter((c) => c.status === 'error');
    expect(failed.length).toBeGreaterThanOrEqual(2);
  });

  it('saves an edited prompt as a new version and moves the label to it', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/objects/support-prompt`);
    await page.getByRole('link', { name: 'Open in playground' }).click();
    const variant = page.locator('section.variant[data-variant="1"]');
    await variant.waitFor();
    expect(await page.locator('input[name="prompt-name"]').inputValue()).toBe('support-prompt');
    expect(await variant.locator('input[name="model"]').inputValue()).toBe('gpt-4o-mini');
    await variant
      .getByRole('textbox', { name: 'Message 1 (system)' })
      .fill('You answer support tickets, kindly.');
    await page.fill('input[name="prompt-label"]', 'production');
    await variant.getByRole('button', { name: 'Save as prompt version' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Saved support-prompt v2, label production moved to it.');
    const read = await fetch(`${server.url}/v1/objects/${PROJECT}/support-prompt/versions/production`);
    const object = (await read.json()) as {
      version: number;
      value: { messages: { content: string }[]; model: string };
    };
    expect(object.version).toBe(2);
    expect(object.value.messages[0]?.content).toBe('You answer support tickets, kindly.');
    expect(object.value.model).toBe('gpt-4o-mini');
  });
});
