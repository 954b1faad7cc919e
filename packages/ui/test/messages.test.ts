import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { flush, op } from '@weft/sdk';
import { wrapOpenAI } from '@weft/sdk/openai';
import type { TestServer } from '@weft/test-server';
import { ApiSeeder } from './support/api-seed.js';
import { artifactsDir } from './support/browser.js';
import { type FakeProvider, startFakeProvider } from './support/fake-provider.js';
import { PIXEL_PNG, type RecordedCalls, recordLlmCalls } from './support/record-llm-calls.js';
import { startUiTestBed, type UiTestBed } from './support/ui-test-bed.js';

const PROJECT = 'messages';

/** Each message shape as recorded by the real clients and exporters, rendered as a conversation. */
describe('model calls rendered as conversations', () => {
  let server: TestServer;
  let provider: FakeProvider;
  let browser: Browser;
  let page: Page;
  let recorded: RecordedCalls;
  let longChat = '';
  let bed: UiTestBed;

  beforeAll(async () => {
    bed = await startUiTestBed();
    server = bed.server;
    provider = await startFakeProvider();
    bed.defer(() => provider.close());
    bed.client(PROJECT);
    recorded = await recordLlmCalls(provider, new ApiSeeder(server.url, PROJECT), server.url);
    // An agent 200 turns in, whose last tool returned 1 MB of text (the SDK's largest string).
    const openai = wrapOpenAI(
      new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0 }),
    );
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are an agent.' }];
    for (let turn = 1; turn <= 199; turn++) {
      messages.push(
        { role: 'user', content: `Question ${turn}` },
        { role: 'assistant', content: `Answer ${turn}` },
      );
    }
    messages.push(
      { role: 'user', content: 'Read the log.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_log', type: 'function', function: { name: 'read_log', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_log', content: `${'log line.\n'.repeat(99_999)}last line.` },
    );
    provider.enqueue({ kind: 'completion', completion: { text: 'The log is fine.' } });
    await op(() => openai.chat.completions.create({ model: 'gpt-4o-mini', messages }), {
      name: 'long-agent',
      onFinish: (c) => (longChat = c.id),
    })();
    await flush();
    browser = await bed.browser();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterEach(async () => {
    await page.close();
  });
  afterAll(() => bed?.close());

  const open = async (shape: keyof RecordedCalls) => {
    await page.goto(`${server.url}/#/${PROJECT}/calls/${recorded[shape].id}`);
    const conversation = page.locator('.conversation');
    await conversation.waitFor();
    return conversation;
  };
  const roles = (scope: ReturnType<Page['locator']>) =>
    scope.locator('li.message').evaluateAll((els) => els.map((e) => e.getAttribute('data-role')));

  it('OpenAI chat: system, text and image parts, the tool call with parsed arguments, its result, the reply', async () => {
    const c = await open('openai-chat-tools');
    expect(await roles(c)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(await c.locator('li.message[data-role="system"]').textContent()).toContain(
      'You are a weather assistant.',
    );
    expect(await c.locator('img.part-image').getAttribute('src')).toBe(PIXEL_PNG);
    const call = c.locator('.tool-call[data-tool="get_weather"]');
    expect(await call.locator('.tool-id').textContent()).toBe('call_w1');
    // Arguments parsed from their JSON text into a value.
    expect(await call.locator('.tool-args').textContent()).toContain('city: "Paris"');
    expect(await c.locator('.tool-result .tool-name').textContent()).toBe('get_weather');
    const reply = c.locator('li.message-output');
    // Line breaks as written, never `\n`.
    expect(await reply.locator('.part-text').innerText()).toBe('It is sunny in Paris,\n22 °C.');
    // The header: model, provider, tokens, cost.
    expect(await page.locator('.call-model').textContent()).toBe('gpt-4o · openai');
    expect(await page.locator('.call-tokens').textContent()).toContain('129');
    expect(await page.locator('.call-cost').textContent()).toMatch(/^\$0\.\d+$/);
    await page.screenshot({ path: join(artifactsDir(), 'message-openai.png'), fullPage: true });

    // The raw JSON stays one click away.
    await page.getByRole('button', { name: 'Raw JSON' }).click();
    await expect.poll(() => page.locator('[data-section="inputs"]').textContent()).toContain('tool_call_id');
    await page.getByRole('button', { name: 'Show as conversation' }).click();
    await page.locator('.conversation').waitFor();
  });

  it('OpenAI chat, streamed: the assembled reply, cached and reasoning tokens, time to first token', async () => {
    const c = await open('openai-chat-stream');
    expect(await c.locator('li.message-output .part-text').textContent()).toBe('Streaming, word by word.');
    const tokens = await page.locator('.call-tokens').textContent();
    expect(tokens).toContain('1,000 in, 400 cached');
    expect(tokens).toContain('200 out, 50 reasoning');
    expect(await page.locator('.call-ttft').textContent()).toMatch(/ms$|s$/);
  });

  it('OpenAI chat: a refusal', async () => {
    const c = await open('openai-refusal');
    expect(await c.locator('li.message-output .part-refusal').textContent()).toContain(
      'I can’t help with that.',
    );
  });

  it('OpenAI Responses: instructions, input items, the reply’s text and function call', async () => {
    const c = await open('openai-responses');
    expect(await roles(c)).toEqual(['system', 'user', 'assistant']);
    expect(await c.locator('li.message[data-role="system"]').textContent()).toContain('You book meetings.');
    const reply = c.locator('li.message-output');
    expect(await reply.locator('.part-text').textContent()).toBe('Checking the calendar.');
    expect(await reply.locator('.tool-call[data-tool="find_slot"] .tool-args').textContent()).toContain(
      'Monday',
    );
  });

  it('Anthropic messages: system, thinking, tool_use and tool_result blocks, the reply', async () => {
    const c = await open('anthropic-tools');
    expect(await roles(c)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    expect(await c.locator('.part-thinking').textContent()).toContain('I should read the file first.');
    expect(await c.locator('.tool-call[data-tool="read_file"] .tool-args').textContent()).toContain(
      'notes.txt',
    );
    const result = c.locator('.tool-result');
    expect(await result.locator('.tool-name').textContent()).toBe('read_file');
    expect(await result.locator('.part-text').innerText()).toBe('a\nb\nc');
    expect(await c.locator('li.message-output .part-text').textContent()).toBe('The file has 3 lines.');
    expect(await page.locator('.call-model').textContent()).toBe('claude-sonnet-4-20250514 · anthropic');
    await page.screenshot({ path: join(artifactsDir(), 'message-anthropic.png'), fullPage: true });
  });

  it('the AI SDK over OTLP: its prompt messages, the tool call and result, the reply', async () => {
    const c = await open('ai-sdk-otlp');
    const text = await c.textContent();
    expect(text).toContain('What is weft?');
    expect(await c.locator('.tool-call[data-tool="lookup"] .tool-args').textContent()).toContain('weft');
    expect(await c.locator('.tool-result .tool-name').textContent()).toBe('lookup');
    expect(await c.locator('li.message-output .part-text').textContent()).toBe(
      'Weft is the yarn across the warp.',
    );
  });

  it('GenAI conventions over OTLP: system instructions, parts, the output message', async () => {
    const c = await open('genai-otlp');
    expect(await roles(c)).toEqual(['system', 'user', 'assistant']);
    expect(await c.locator('li.message[data-role="system"]').textContent()).toContain('Answer in French.');
    expect(await c.locator('li.message-output .part-text').textContent()).toBe('Bonjour !');
  });

  it('OpenInference over OTLP: indexed messages, the output message', async () => {
    const c = await open('openinference-otlp');
    expect(await roles(c)).toEqual(['system', 'user', 'assistant']);
    expect(await c.locator('li.message-output .part-text').textContent()).toBe('1, 2, 3');
  });

  it('opens a 200-turn conversation with a 1 MB tool result at once: the middle folded, the long text cut', async () => {
    const { calls } = await new ApiSeeder(server.url, PROJECT).post<{ calls: { id: string }[] }>(
      '/v1/calls/query',
      {
        project: PROJECT,
        parentId: longChat,
      },
    );
    await page.goto(`${server.url}/#/${PROJECT}/calls/${calls[0]!.id}`);
    const c = page.locator('.conversation');
    await c.waitFor();
    // 402 messages sent: the first 10 and the last 40 are in the page, the rest one click away.
    const sent = c.locator('ol[aria-label="Messages sent"] > li.message');
    expect(await sent.count()).toBe(50);
    const fold = c.getByRole('button', { name: 'Show 352 more messages' });
    expect(await fold.count()).toBe(1);
    // The tool result shows its first 20,000 characters, not 1 MB.
    const result = c.locator('.tool-result');
    expect(await result.locator('.tool-name').textContent()).toBe('read_log');
    const shown = (await result.locator('.part-text').textContent()) ?? '';
    expect(shown.length).toBeLessThan(21_000);
    const showAll = result.getByRole('button', { name: 'Show all 1,000,000 characters' });
    await showAll.click();
    await expect
      .poll(async () => ((await result.locator('.part-text').textContent()) ?? '').length)
      .toBe(1_000_000);
    expect(await result.locator('.part-text').textContent()).toContain('last line.');
    await fold.click();
    await expect.poll(() => sent.count()).toBe(402);
    expect(await c.locator('li.message-output .part-text').textContent()).toBe('The log is fine.');
  });

  it('lists model calls with input and output previews, model, feedback and totals, and hides a column on request', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/calls?op=openai.chat.completions.create`);
    const row = page.locator(`tr.call-row[data-call-id="${recorded['openai-chat-tools'].id}"]`);
    await row.waitFor();
    const cells = row.locator('td.col-preview');
    expect(await cells.nth(0).textContent()).toBe('What is the weather where this photo was taken?');
    expect(await cells.nth(1).textContent()).toBe('It is sunny in Paris, 22 °C.');
    expect(await row.locator('td.col-model').textContent()).toBe('gpt-4o');
    // Totals cover every call the filter matches: the OpenAI chat calls recorded.
    const rows = await page.locator('tr.call-row').count();
    await expect
      .poll(() => page.locator('.call-totals [data-total="count"]').textContent())
      .toBe(String(rows));

    await page.locator('.column-chooser summary').click();
    await page.locator('input[name="column-input"]').uncheck();
    expect(await page.locator('.calls-table th', { hasText: 'Input' }).count()).toBe(0);
    await page.reload();
    await row.waitFor();
    expect(await page.locator('.calls-table th', { hasText: 'Input' }).count()).toBe(0);
    expect(await page.locator('.calls-table th', { hasText: 'Output' }).count()).toBe(1);
  });

  it('marks each model call in the trace tree with its model, and totals the trace’s tokens', async () => {
    await page.goto(`${server.url}/#/${PROJECT}/trace/${recorded['anthropic-tools'].traceId}`);
    const llm = page.locator('[role="treeitem"][data-op="anthropic.messages.create"]');
    await llm.waitFor();
    expect(await llm.locator('.tt-model').textContent()).toBe('claude-sonnet-4-20250514');
    // The scenario op around it has the same usage, but not its own: no model mark.
    expect(await page.locator('[role="treeitem"][data-op="scenario"] .tt-model').count()).toBe(0);
    expect(await page.locator('.trace-tokens').textContent()).toContain('1 model call');
  });
});
