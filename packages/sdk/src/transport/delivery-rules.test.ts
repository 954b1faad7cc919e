import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_POLICY,
  rejectionVerdict,
  type RetryPolicy,
  retryVerdict,
  serverSignal,
  spendsAttempt,
  splitInHalves,
} from './delivery-rules.js';
import { ServerUnreachableError } from './transport-errors.js';

const policy: RetryPolicy = {
  ...DEFAULT_RETRY_POLICY,
  maxAttempts: 3,
  backoff: { baseMs: 100, maxMs: 1_000 },
  maxRetryDelayMs: 5_000,
  maxRetriesInFlight: 2,
};
const failure = (retryAfterMs?: number) => ({
  status: 'retryable' as const,
  retryAfterMs,
  error: new ServerUnreachableError('http://127.0.0.1:1', new Error('refused')),
});
const state = { attempts: 1, hasOutbox: true, serverDown: false, retrying: 0 };

describe('retryVerdict', () => {
  it('retries after a jittered exponential delay while attempts remain', () => {
    expect(retryVerdict(failure(), { ...state, attempts: 2 }, policy, () => 0.5)).toEqual({
      action: 'retry',
      delayMs: 100,
    });
  });

  it('honours Retry-After over a shorter backoff, capped by maxRetryDelayMs', () => {
    expect(retryVerdict(failure(2_000), state, policy, () => 0)).toEqual({ action: 'retry', delayMs: 2_000 });
    expect(retryVerdict(failure(60_000), state, policy, () => 0)).toEqual({
      action: 'retry',
      delayMs: 5_000,
    });
  });

  it('keeps the record once the attempts are used up, with or without an outbox', () => {
    expect(retryVerdict(failure(), { ...state, attempts: 3 }, policy)).toMatchObject({
      action: 'keep',
      reason: expect.stringContaining('after 3 attempts'),
    });
    expect(retryVerdict(failure(), { ...state, attempts: 3, hasOutbox: false }, policy)).toMatchObject({
      action: 'keep',
    });
  });

  it('retries an overloaded answer (429/503 with Retry-After) however many attempts were spent; a 503 without it spends them', () => {
    const overloaded = { ...failure(1_000), statusCode: 503 };
    const failing = { ...failure(), statusCode: 503 };
    expect(spendsAttempt(overloaded)).toBe(false);
    expect(spendsAttempt({ ...failure(1_000), statusCode: 429 })).toBe(false);
    expect(spendsAttempt(failing)).toBe(true);
    expect(spendsAttempt(failure())).toBe(true);
    expect(retryVerdict(overloaded, { ...state, attempts: 3 }, policy, () => 0)).toEqual({
      action: 'retry',
      delayMs: 1_000,
    });
    expect(retryVerdict(failing, { ...state, attempts: 3 }, policy)).toMatchObject({ action: 'keep' });
  });

  it('keeps it at once while the circuit is open or past the retry budget, when an outbox can take it', () => {
    expect(retryVerdict(failure(), { ...state, serverDown: true }, policy)).toMatchObject({
      action: 'keep',
      reason: expect.stringContaining('circuit'),
    });
    expect(retryVerdict(failure(), { ...state, retrying: 2 }, policy)).toMatchObject({
      action: 'keep',
      reason: expect.stringContaining('budget'),
    });
  });

  it('retries an overloaded answer (429/503 with Retry-After) past the retry budget: those waits do not use it', () => {
    const overloaded = { ...failure(1_000), statusCode: 503 };
    expect(retryVerdict(overloaded, { ...state, retrying: 2 }, policy, () => 0)).toEqual({
      action: 'retry',
      delayMs: 1_000,
    });
  });

  it('without an outbox it retries while attempts remain, whatever the circuit and the budget', () => {
    expect(
      retryVerdict(failure(), { ...state, hasOutbox: false, serverDown: true, retrying: 9 }, policy, () => 0),
    ).toEqual({ action: 'retry', delayMs: 0 });
  });
});

describe('rejectionVerdict', () => {
  it('drops the item a 400 or 422 names, when the index is inside the batch', () => {
    expect(rejectionVerdict(400, 3, 10)).toEqual({ action: 'drop', index: 3, tooLarge: false });
    expect(rejectionVerdict(422, 0, 1)).toEqual({ action: 'drop', index: 0, tooLarge: false });
  });

  it('splits a batch a 400 or 413 rejects without a usable index; drops it once it stands alone', () => {
    expect(rejectionVerdict(400, undefined, 10)).toEqual({ action: 'split' });
    expect(rejectionVerdict(400, 99, 10)).toEqual({ action: 'split' });
    expect(rejectionVerdict(413, undefined, 2)).toEqual({ action: 'split' });
    expect(rejectionVerdict(413, undefined, 1)).toEqual({ action: 'drop', index: 0, tooLarge: true });
  });

  it("keeps what is not the record's fault: credentials refused, other 4xx", () => {
    expect(rejectionVerdict(401, undefined, 5)).toEqual({ action: 'keep', auth: true });
    expect(rejectionVerdict(403, 0, 1)).toEqual({ action: 'keep', auth: true });
    expect(rejectionVerdict(409, undefined, 1)).toEqual({ action: 'keep', auth: false });
  });
});

describe('splitInHalves', () => {
  it('gives the back half first, so a work stack pops the front half first; odd lengths put the extra item in front', () => {
    expect(splitInHalves([1, 2, 3, 4, 5])).toEqual([
      [4, 5],
      [1, 2, 3],
    ]);
  });
});

describe('serverSignal', () => {
  const refused = new ServerUnreachableError('http://127.0.0.1:1', new Error('refused'));
  const answered = (statusCode: number, retryAfterMs?: number) => ({
    status: 'retryable' as const,
    statusCode,
    retryAfterMs,
    error: refused,
  });
  it.each([
    { name: '503 with Retry-After (WEFT_OVERLOADED)', result: answered(503, 1_000), signal: 'overloaded' },
    { name: '429 with Retry-After', result: answered(429, 0), signal: 'overloaded' },
    { name: '503 without Retry-After', result: answered(503), signal: 'failing' },
    { name: '500 with Retry-After', result: answered(500, 1_000), signal: 'failing' },
    { name: '408', result: answered(408), signal: 'failing' },
    { name: 'no answer (connection refused, timeout)', result: failure(), signal: 'failing' },
    { name: 'no answer, even with a delay', result: failure(1_000), signal: 'failing' },
    { name: 'an acknowledged request', result: { status: 'sent' as const, body: {} }, signal: 'up' },
  ])('$name: $signal', ({ result, signal }) => {
    expect(serverSignal(result)).toBe(signal);
  });
});
