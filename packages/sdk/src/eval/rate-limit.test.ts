import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimitExhaustedError } from './errors/index.js';
import { AdaptiveConcurrency } from './rate-limit.js';
import { rateLimitOf } from './rate-limit-of.js';

const limited = (extra: Record<string, unknown> = {}) =>
  Object.assign(new Error('429 Too Many Requests'), { status: 429, ...extra });

describe('rateLimitOf', () => {
  it('recognizes status 429 in its usual places and the retry-after forms', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(rateLimitOf({ status: 429 })).toEqual({ retryAfterMs: undefined });
    expect(rateLimitOf({ statusCode: 429, retryAfterMs: 250 })).toEqual({ retryAfterMs: 250 });
    expect(rateLimitOf({ response: { status: 429, headers: { 'retry-after': '2' } } })).toEqual({
      retryAfterMs: 2_000,
    });
    expect(rateLimitOf({ status: 429, headers: new Headers({ 'retry-after': '1.5' }) })).toEqual({
      retryAfterMs: 1_500,
    });
    expect(rateLimitOf({ retryAfter: 3 })).toEqual({ retryAfterMs: 3_000 });
    expect(rateLimitOf({ retryAfter: new Date(now + 4_000).toUTCString() }, now)).toEqual({
      retryAfterMs: 4_000,
    });
    expect(rateLimitOf({ status: 500 })).toBeUndefined();
    expect(rateLimitOf(new Error('plain'))).toBeUndefined();
    expect(rateLimitOf('429')).toBeUndefined();
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('no');
        },
      },
    );
    expect(rateLimitOf(hostile)).toBeUndefined();
  });
});

describe('AdaptiveConcurrency', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits the retryAfter the model gave, then retries; the rate-limited attempts are not a failure', async () => {
    const limiter = new AdaptiveConcurrency(4);
    let calls = 0;
    const settled = vi.fn();
    const run = limiter
      .run(async () => {
        calls++;
        if (calls <= 2) throw limited({ retryAfterMs: 2_000 });
        return 'ok';
      })
      .then(settled);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(2_000);
    await run;
    expect(calls).toBe(3);
    expect(settled).toHaveBeenCalledWith('ok');
    expect(limiter.stats).toMatchObject({ rateLimited: 2 });
  });

  it('halves concurrency once per burst of rejections, and adds one back per N successes', async () => {
    const changes: number[] = [];
    const limiter = new AdaptiveConcurrency(
      16,
      { recoverAfterSuccesses: 3, baseDelayMs: 100 },
      {
        onChange: (n) => changes.push(n),
        random: () => 0.5,
      },
    );
    // 8 attempts in flight all rejected in the same moment: one halving, 16 → 8.
    let wall = true;
    const model = async () => {
      if (wall) throw limited();
      return 1;
    };
    const runs = Array.from({ length: 8 }, () => limiter.run(model));
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([8]);
    // Still limited after the backoff: the retries started after the decrease, so one more halving.
    await vi.advanceTimersByTimeAsync(100);
    expect(changes).toEqual([8, 4]);
    wall = false;
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all(runs);
    // 8 successes with N = 3: +1 twice.
    expect(changes).toEqual([8, 4, 5, 6]);
    for (let i = 0; i < 30; i++) await limiter.run(model);
    expect(limiter.concurrency).toBe(16);
    expect(limiter.stats).toMatchObject({ decreases: 2, increases: 12, concurrency: 16 });
  });

  it('backs off exponentially with jitter when no retryAfter is given', async () => {
    const limiter = new AdaptiveConcurrency(
      1,
      { baseDelayMs: 1_000, maxDelayMs: 3_000 },
      { random: () => 1 },
    );
    const times: number[] = [];
    const start = Date.now();
    const run = limiter.run(async () => {
      times.push(Date.now() - start);
      if (times.length < 4) throw limited();
      return 'done';
    });
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(run).resolves.toBe('done');
    // random = 1 → the full backoff: 1 s, 2 s, then capped at 3 s.
    expect(times).toEqual([0, 1_000, 3_000, 6_000]);
  });

  it('fails the row with WEFT_RATE_LIMITED once its retry budget is spent', async () => {
    const limiter = new AdaptiveConcurrency(2, { maxAttempts: 3, baseDelayMs: 10 });
    let calls = 0;
    const run = limiter.run(async () => {
      calls++;
      throw limited();
    });
    const caught = run.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await caught;
    expect(error).toBeInstanceOf(RateLimitExhaustedError);
    expect((error as RateLimitExhaustedError).code).toBe('WEFT_RATE_LIMITED');
    expect((error as RateLimitExhaustedError).attempts).toBe(3);
    expect(calls).toBe(3);
  });

  it('rethrows other errors at once, without retry', async () => {
    const limiter = new AdaptiveConcurrency(2);
    const boom = new Error('boom');
    let calls = 0;
    await expect(
      limiter.run(async () => {
        calls++;
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(calls).toBe(1);
    expect(limiter.concurrency).toBe(2);
  });

  it('stops waiting when the signal aborts', async () => {
    const limiter = new AdaptiveConcurrency(2);
    const controller = new AbortController();
    let calls = 0;
    const run = limiter
      .run(async () => {
        calls++;
        throw limited({ retryAfterMs: 60_000 });
      }, controller.signal)
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('stop'));
    expect(await run).toMatchObject({ message: 'stop' });
    expect(calls).toBe(1);
  });

  it('rejects bad options naming the option', () => {
    expect(() => new AdaptiveConcurrency(2, { maxAttempts: 0 })).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_OPTIONS', path: 'maxAttempts' }),
    );
  });
});
