import { describe, expect, it } from 'vitest';
import { addUsage } from './add-usage.js';

const entry = (tokens: number, costUsd?: number) => ({
  requests: 1,
  inputTokens: tokens,
  outputTokens: 0,
  totalTokens: tokens,
  ...(costUsd === undefined ? {} : { costUsd }),
});

describe('addUsage', () => {
  it('sums per model, keeps optional counts absent on both sides absent, and never aliases the added map', () => {
    const from = { a: entry(2, 0.1) };
    const sum = addUsage(addUsage(undefined, from), { a: entry(3, 0.2), b: entry(5) });
    expect(sum).toEqual({
      a: { requests: 2, inputTokens: 5, outputTokens: 0, totalTokens: 5, costUsd: 0.3 },
      b: entry(5),
    });
    expect(from.a).toEqual(entry(2, 0.1));
  });

  it('keeps a model named __proto__ as an entry of its own', () => {
    const hostile = JSON.parse(
      '{"__proto__": {"requests": 1, "inputTokens": 4, "outputTokens": 0, "totalTokens": 4}}',
    );
    const sum = addUsage(addUsage(undefined, hostile), hostile);
    expect(Object.getPrototypeOf(sum)).toBe(Object.prototype);
    expect(Object.keys(sum ?? {})).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(sum, '__proto__')?.value).toMatchObject({
      requests: 2,
      inputTokens: 8,
    });
  });
});
