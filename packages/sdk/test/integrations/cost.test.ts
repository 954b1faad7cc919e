import OpenAI from 'openai';
import { expect, it } from 'vitest';
import { wrapOpenAI } from '@weft/sdk/openai';
import { setup } from './setup.js';

const messages = [{ role: 'user' as const, content: 'hi' }];
const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 200_000 };

it.each([
  ['an unpriced model gets no cost field, never 0', 'my-finetune', undefined, undefined],
  [
    'a price given to weft.init prices it',
    'my-finetune',
    { 'my-finetune': { input: 1, cachedInput: 0.5, output: 2 } },
    0.8 + 0.1 + 0.2,
  ],
  [
    'a price given to weft.init overrides the table',
    'gpt-4o-mini',
    { 'gpt-4o-mini': { input: 10, output: 10 } },
    10 + 1,
  ],
])('%s', async (_label, model, prices, costUsd) => {
  const { provider, calls } = await setup('integration-cost', prices);
  const openai = wrapOpenAI(new OpenAI({ apiKey: 'test', baseURL: `${provider.url}/v1`, maxRetries: 0 }));
  provider.enqueue({ kind: 'completion', completion: { usage } });
  await openai.chat.completions.create({ model, messages });
  const [call] = await calls();
  expect(call?.summary?.usage?.[model]?.inputTokens).toBe(1_000_000);
  expect(call?.summary?.usage?.[model]?.costUsd).toBe(costUsd);
  expect(call?.summary?.costUsd).toBe(costUsd);
  if (costUsd === undefined) expect(call?.summary).not.toHaveProperty('costUsd');
});
