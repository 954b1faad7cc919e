import { describe, expect, it } from 'vitest';
import { isTraceSampled } from './trace-sampled.js';

/** Fixed pseudo-random trace ids (mulberry32, seed 13): the same ids on every run, so nothing can flake. */
function fixedTraceIds(count: number, seed = 13): string[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return Array.from({ length: count }, () => {
    const [w0, w1, w2, w3] = [next(), next(), next(), next()].map(hex) as [string, string, string, string];
    return `${w0}-${w1.slice(0, 4)}-7${w1.slice(5)}-${w2.slice(0, 4)}-${w2.slice(4)}${w3}`;
  });
}

describe('isTraceSampled', () => {
  const ids = fixedTraceIds(20_000);

  it('keeps every trace at rate 1 and none at rate 0', () => {
    expect(ids.every((id) => isTraceSampled(id, 1))).toBe(true);
    expect(ids.some((id) => isTraceSampled(id, 0))).toBe(false);
  });

  it('decides the same way for the same trace id, every time', () => {
    const first = ids.map((id) => isTraceSampled(id, 0.3));
    const again = ids.map((id) => isTraceSampled(id, 0.3));
    expect(again).toEqual(first);
  });

  it('keeps a fraction within 4 standard deviations of the rate over 20,000 fixed ids', () => {
    for (const rate of [0.01, 0.1, 0.25, 0.5, 0.9]) {
      const kept = ids.filter((id) => isTraceSampled(id, rate)).length;
      const sd = Math.sqrt(ids.length * rate * (1 - rate));
      expect(Math.abs(kept - ids.length * rate)).toBeLessThan(4 * sd);
    }
  });

  it('is monotonic in the rate: a trace kept at a rate is kept at every higher rate', () => {
    for (const id of ids.slice(0, 2_000)) {
      if (isTraceSampled(id, 0.2)) expect(isTraceSampled(id, 0.6)).toBe(true);
    }
  });

  it('reads the last 32 bits of the id', () => {
    expect(isTraceSampled('00000000-0000-7000-8000-000000000000', 0.000001)).toBe(true);
    expect(isTraceSampled('00000000-0000-7000-8000-0000ffffffff', 0.999999)).toBe(false);
    expect(isTraceSampled('ffffffff-ffff-7fff-bfff-ffff7fffffff', 0.5)).toBe(true);
    expect(isTraceSampled('ffffffff-ffff-7fff-bfff-ffff80000000', 0.5)).toBe(false);
  });
});
