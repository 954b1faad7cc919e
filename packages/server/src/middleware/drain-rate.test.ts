import { describe, expect, it } from 'vitest';
import { DrainRate } from './drain-rate.js';

describe('DrainRate', () => {
  it('asks for 1 s before any request has finished', () => {
    expect(new DrainRate(() => 0).retryAfterSeconds(8)).toBe(1);
  });

  it('asks for the time to work off what is in progress and what was just refused, at the measured rate', () => {
    let now = 0;
    const rate = new DrainRate(() => now);
    // One completion every 2 s for 10 s: 0.5 requests a second.
    for (now = 2_000; now <= 10_000; now += 2_000) rate.completed();
    now = 10_000;
    expect(rate.retryAfterSeconds(4)).toBe(8);
    rate.refused();
    rate.refused();
    expect(rate.retryAfterSeconds(4)).toBe(12);
    // Refusals older than a second no longer count.
    now = 11_500;
    expect(rate.retryAfterSeconds(4)).toBe(8);
  });

  it('asks for 1 s from a fast server and at most 30 s from a stalled one', () => {
    let now = 0;
    const fast = new DrainRate(() => now);
    for (; now < 1_000; now += 10) fast.completed();
    expect(fast.retryAfterSeconds(8)).toBe(1);
    const slow = new DrainRate(() => now);
    now += 10_000;
    slow.completed();
    now += 9_000;
    expect(slow.retryAfterSeconds(100)).toBe(30);
  });
});
