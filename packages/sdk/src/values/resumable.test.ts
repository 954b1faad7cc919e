import { describe, expect, it } from 'vitest';
import { Sanitizer, sanitize } from './index.js';
import { expectSameJson } from './wire-safe.test-support.js';

class Tool {
  constructor(readonly name: string) {}
}

function conversation(turns: number) {
  const messages = Array.from({ length: turns }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `message ${i} `.repeat(50),
    meta: { turn: i, tags: new Set(['a', 'b']), at: new Date(i * 1000), tool: new Tool(`t${i}`) },
  }));
  const root: Record<string, unknown> = { messages, settings: new Map([['temperature', 0.2]]), apiKey: 'k' };
  root.self = root;
  return root;
}

describe('resumable walk', () => {
  it('gives the same result in steps of 1, 3 and 100 nodes as in one go', () => {
    const value = conversation(40);
    const whole = sanitize(value).value;
    for (const budget of [1, 3, 100]) {
      const sliced = new Sanitizer(value);
      let slices = 1;
      while (!sliced.step(budget)) slices++;
      expectSameJson(sliced.result, whole);
      expect(slices).toBeGreaterThanOrEqual(Math.floor(sliced.nodes / budget));
    }
  });

  it('does no work for a zero budget and keeps answering true once complete', () => {
    const s = new Sanitizer({ a: [1, 2, 3] });
    expect(s.step(0)).toBe(false);
    expect(s.nodes).toBe(0);
    expect(s.result).toBeNull();
    expect(s.step(1)).toBe(false);
    expect(s.step(100)).toBe(true);
    expect(s.step(100)).toBe(true);
    expect(s.result).toEqual({ a: [1, 2, 3] });
  });

  it('shows a valid partial result between slices', () => {
    const s = new Sanitizer({ a: [1, 2, 3], b: 'later' });
    s.step(3);
    expect(s.result).toEqual({ a: [1] });
  });

  it('writes a hook ref that resolves between slices and reuses it for later occurrences', async () => {
    const tool = new Tool('search');
    let resolve!: (ref: string) => void;
    const s = new Sanitizer(
      { first: tool, filler: [1, 2, 3, 4], again: tool },
      { onObject: (o) => (o === tool ? new Promise<string>((r) => (resolve = r)) : undefined) },
    );
    s.step(3); // root, first, filler
    resolve('weft:///p/object/Tool:d1');
    await Promise.all(s.pending);
    while (!s.step(2)) {}
    expect(s.result).toEqual({
      first: 'weft:///p/object/Tool:d1',
      filler: [1, 2, 3, 4],
      again: 'weft:///p/object/Tool:d1',
    });
  });
});
