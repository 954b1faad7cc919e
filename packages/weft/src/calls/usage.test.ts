import { describe, expect, it } from 'vitest';
import { addUsage, usageOf } from './usage.js';

describe('usageOf', () => {
  it.each([
    ['OpenAI', { model: 'gpt-4o', usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } }, { 'gpt-4o': { requests: 1, inputTokens: 10, outputTokens: 2, totalTokens: 12 } }],
    ['Anthropic', { model: 'claude', usage: { input_tokens: 7, output_tokens: 3 } }, { claude: { requests: 1, inputTokens: 7, outputTokens: 3, totalTokens: 10 } }],
    ['camelCase, no model', { usage: { promptTokens: 1, completionTokens: 1 } }, { unknown: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 } }],
    ['no usage', { model: 'x' }, undefined],
    ['usage without numbers', { usage: { foo: 1 } }, undefined],
    ['a throwing getter', Object.defineProperty({}, 'usage', { get: () => { throw new Error('x'); } }), undefined],
    ['a string', 'text', undefined],
  ])('%s', (_label, output, expected) => {
    expect(usageOf(output)).toEqual(expected);
  });

  it('adds per model', () => {
    const sum = addUsage(usageOf({ model: 'a', usage: { input_tokens: 1, output_tokens: 1 } }), usageOf({ model: 'a', usage: { input_tokens: 2, output_tokens: 0 } }));
    expect(addUsage(sum, usageOf({ model: 'b', usage: { input_tokens: 5 } }))).toEqual({
      a: { requests: 2, inputTokens: 3, outputTokens: 1, totalTokens: 4 },
      b: { requests: 1, inputTokens: 5, outputTokens: 0, totalTokens: 5 },
    });
  });
});
