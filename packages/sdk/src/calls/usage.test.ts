import { describe, expect, it } from 'vitest';
import { addUsage, usageOf } from './usage.js';

describe('usageOf', () => {
  it.each([
    [
      'OpenAI',
      { model: 'gpt-4o', usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } },
      { 'gpt-4o': { requests: 1, inputTokens: 10, outputTokens: 2, totalTokens: 12 } },
    ],
    [
      'Anthropic',
      { model: 'claude', usage: { input_tokens: 7, output_tokens: 3 } },
      { claude: { requests: 1, inputTokens: 7, outputTokens: 3, totalTokens: 10 } },
    ],
    [
      'camelCase, no model',
      { usage: { promptTokens: 1, completionTokens: 1 } },
      { unknown: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    ],
    [
      'OpenAI chat with cached and reasoning tokens',
      {
        model: 'o3',
        usage: {
          prompt_tokens: 100,
          completion_tokens: 50,
          total_tokens: 150,
          prompt_tokens_details: { cached_tokens: 40 },
          completion_tokens_details: { reasoning_tokens: 30 },
        },
      },
      {
        o3: {
          requests: 1,
          inputTokens: 100,
          outputTokens: 50,
          totalTokens: 150,
          cachedInputTokens: 40,
          reasoningTokens: 30,
        },
      },
    ],
    [
      'OpenAI Responses with details',
      {
        model: 'o3',
        usage: {
          input_tokens: 100,
          output_tokens: 50,
          total_tokens: 150,
          input_tokens_details: { cached_tokens: 40 },
          output_tokens_details: { reasoning_tokens: 30 },
        },
      },
      {
        o3: {
          requests: 1,
          inputTokens: 100,
          outputTokens: 50,
          totalTokens: 150,
          cachedInputTokens: 40,
          reasoningTokens: 30,
        },
      },
    ],
    [
      'OpenAI zero details are left out',
      {
        model: 'm',
        usage: {
          prompt_tokens: 1,
          completion_tokens: 1,
          total_tokens: 2,
          prompt_tokens_details: { cached_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0 },
        },
      },
      { m: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    ],
    [
      'Anthropic cache reads and writes count as input',
      {
        model: 'claude',
        usage: {
          input_tokens: 10,
          cache_read_input_tokens: 200,
          cache_creation_input_tokens: 30,
          output_tokens: 5,
        },
      },
      {
        claude: {
          requests: 1,
          inputTokens: 240,
          outputTokens: 5,
          totalTokens: 245,
          cachedInputTokens: 200,
          cacheWriteTokens: 30,
        },
      },
    ],
    ['no usage', { model: 'x' }, undefined],
    ['usage without numbers', { usage: { foo: 1 } }, undefined],
    [
      'a throwing getter',
      Object.defineProperty({}, 'usage', {
        get: () => {
          throw new Error('x');
        },
      }),
      undefined,
    ],
    ['a string', 'text', undefined],
  ])('%s', (_label, output, expected) => {
    expect(usageOf(output)).toEqual(expected);
  });

  it('adds per model', () => {
    const sum = addUsage(
      usageOf({ model: 'a', usage: { input_tokens: 1, output_tokens: 1 } }),
      usageOf({ model: 'a', usage: { input_tokens: 2, output_tokens: 0 } }),
    );
    expect(addUsage(sum, usageOf({ model: 'b', usage: { input_tokens: 5 } }))).toEqual({
      a: { requests: 2, inputTokens: 3, outputTokens: 1, totalTokens: 4 },
      b: { requests: 1, inputTokens: 5, outputTokens: 0, totalTokens: 5 },
    });
  });
});
