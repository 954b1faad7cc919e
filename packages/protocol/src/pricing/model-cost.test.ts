import { describe, expect, it } from 'vitest';
import type { ModelUsage } from './model-usage.js';
import { costOfUsage, findModelPrice, priceUsage, totalCostUsd } from './model-cost.js';
import { PRICE_TABLE } from './price-table.js';

const usage = (u: Partial<ModelUsage>): ModelUsage => ({
  requests: 1,
  inputTokens: 0,
  outputTokens: 0,
  totalTokens: 0,
  ...u,
});

describe('findModelPrice', () => {
  it.each([
    ['gpt-4o', 'gpt-4o'],
    ['gpt-4o-2024-08-06', 'gpt-4o'],
    ['gpt-4o-mini-2024-07-18', 'gpt-4o-mini'],
    ['gpt-4o-2024-05-13', 'gpt-4o-2024-05-13'],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['claude-3-5-haiku-latest', 'claude-3-5-haiku'],
    ['openai/gpt-4.1-mini', 'gpt-4.1-mini'],
    ['models/gemini-2.5-flash', 'gemini-2.5-flash'],
    ['GPT-4o', 'gpt-4o'],
  ])('%s is priced as %s', (model, key) => {
    expect(findModelPrice(model)).toBe(PRICE_TABLE[key]);
  });

  it.each(['llama-3-70b', 'gpt-4ox', 'unknown', '', 'constructor', '__proto__'])(
    '%s has no price',
    (model) => {
      expect(findModelPrice(model)).toBeUndefined();
    },
  );

  it('lets an override win over the built-in entry and add new models', () => {
    const overrides = { 'gpt-4o': { input: 1, output: 1 }, 'my-finetune': { input: 3, output: 12 } };
    expect(findModelPrice('gpt-4o-2024-08-06', overrides)).toBe(overrides['gpt-4o']);
    expect(findModelPrice('my-finetune', overrides)).toBe(overrides['my-finetune']);
    expect(findModelPrice('gpt-4.1', overrides)).toBe(PRICE_TABLE['gpt-4.1']);
  });
});

describe('costOfUsage', () => {
  it.each([
    // [what, usage, price, dollars]
    [
      'plain input and output',
      usage({ inputTokens: 1_000_000, outputTokens: 1_000_000 }),
      { input: 2, output: 8 },
      10,
    ],
    [
      'cached input at its price',
      usage({ inputTokens: 1_000, cachedInputTokens: 400, outputTokens: 0 }),
      { input: 2, cachedInput: 0.5, output: 8 },
      (600 * 2 + 400 * 0.5) / 1e6,
    ],
    [
      'cached input at the input price when unpriced',
      usage({ inputTokens: 1_000, cachedInputTokens: 400 }),
      { input: 2, output: 8 },
      (1_000 * 2) / 1e6,
    ],
    [
      'cache writes at their price',
      usage({ inputTokens: 1_000, cacheWriteTokens: 1_000 }),
      { input: 3, cacheWrite: 3.75, output: 15 },
      (1_000 * 3.75) / 1e6,
    ],
    [
      'reasoning inside output when not priced apart',
      usage({ outputTokens: 100, reasoningTokens: 60 }),
      { input: 1, output: 4 },
      400 / 1e6,
    ],
    [
      'reasoning priced apart',
      usage({ outputTokens: 100, reasoningTokens: 60 }),
      { input: 1, output: 4, reasoning: 2 },
      (40 * 4 + 60 * 2) / 1e6,
    ],
  ])('%s', (_what, u, price, dollars) => {
    expect(costOfUsage(u, price)).toBeCloseTo(dollars, 12);
  });
});

describe('priceUsage and totalCostUsd', () => {
  it('prices the priced models only: an unpriced model gets no cost field, never 0', () => {
    const map = priceUsage({
      'gpt-4o-mini': usage({ inputTokens: 1_000_000, outputTokens: 0 }),
      'my-local-llm': usage({ inputTokens: 5, outputTokens: 5 }),
    });
    expect(map['gpt-4o-mini']?.costUsd).toBeCloseTo(0.15, 12);
    expect(map['my-local-llm']).not.toHaveProperty('costUsd');
    expect(totalCostUsd(map)).toBeCloseTo(0.15, 12);
  });

  it('has no total when nothing is priced', () => {
    expect(totalCostUsd(priceUsage({ x: usage({ inputTokens: 5 }) }))).toBeUndefined();
    expect(totalCostUsd(undefined)).toBeUndefined();
  });

  it('uses the overrides given', () => {
    const map = priceUsage(
      { 'my-finetune': usage({ inputTokens: 1_000_000, outputTokens: 1_000_000 }) },
      { 'my-finetune': { input: 3, output: 12 } },
    );
    expect(totalCostUsd(map)).toBe(15);
  });
});
