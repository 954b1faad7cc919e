import type { SendResult } from './api-client.js';
import { type BackoffOptions, backoffDelayMs } from './backoff.js';

/**
 * The decisions of the delivery path, as pure functions: what to do with a
 * request that failed. The call batcher, the outbox replay and the upload of
 * object versions, files and table chunks all ask these, so there is one rule
 * for retrying and one for isolating a rejected item, whatever the record.
 */

/** How a failed request is retried. */
export interface RetryPolicy {
  /** Requests per record (or batch) before it goes to the outbox (or fails, without one). */
  maxAttempts: number;
  /** Retry spacing: exponential with full jitter. */
  backoff: BackoffOptions;
  /** Cap on one delay, including one asked for by `Retry-After`. */
  maxRetryDelayMs: number;
  /**
   * Retry budget: records (or batches) waiting to be retried after a real
   * failure at once; past it they go to the outbox. Waits an overloaded
   * server asked for ({@link spendsAttempt} false) are not counted.
   */
  maxRetriesInFlight: number;
}

/** The defaults of `init`'s (and the batcher's) retry options: one set of constants for every record kind. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  backoff: { baseMs: 100, maxMs: 10_000 },
  maxRetryDelayMs: 60_000,
  maxRetriesInFlight: 8,
};

/** What the sender knows when a request failed retryably. */
export interface RetryState {
  /** Failed requests so far for this record or batch that spent an attempt ({@link spendsAttempt}), this one included. */
  attempts: number;
  /** Whether a durable outbox can take it. */
  hasOutbox: boolean;
  /** Whether the circuit breaker says the server keeps failing. */
  serverDown: boolean;
  /** Records or batches already waiting to retry after a real failure (the retry budget in use). */
  retrying: number;
}

/** `retry` after `delayMs`, or `keep` it (outbox, or failed without one) and say why. */
export type RetryVerdict = { action: 'retry'; delayMs: number } | { action: 'keep'; reason: string };

/**
 * After a retryable failure (network error, 408, 429, 5xx): wait and retry,
 * honouring `Retry-After`, unless the attempts are used up, the server is
 * known to be down, or the retry budget is spent — then the outbox keeps it.
 * Without an outbox it keeps retrying while attempts remain (there is nowhere
 * else to keep it), past the budget too. An overloaded server's answer
 * (429/503 with `Retry-After`) spends no attempt and no room in the budget
 * ({@link spendsAttempt}): the server is up and said when to come back, so
 * it is retried however often the server asks to wait. (The budget counted
 * such waits once: past eight of them a busy server's batches went to the
 * outbox as if it had failed. Those waits are bounded by the send slots
 * instead: the batcher keeps a refused batch's slot while it waits.)
 */
export function retryVerdict(
  result: Extract<SendResult, { status: 'retryable' }>,
  state: RetryState,
  policy: RetryPolicy,
  random: () => number = Math.random,
): RetryVerdict {
  const failed = spendsAttempt(result);
  if (failed && state.attempts >= policy.maxAttempts) {
    return {
      action: 'keep',
      reason: `the server did not accept it after ${policy.maxAttempts} attempts (${result.error.message})`,
    };
  }
  if (state.hasOutbox && state.serverDown)
    return { action: 'keep', reason: 'the circuit is open (the server kept failing)' };
  if (failed && state.hasOutbox && state.retrying >= policy.maxRetriesInFlight)
    return { action: 'keep', reason: 'the retry budget is used up' };
  const jittered = backoffDelayMs(state.attempts, policy.backoff, random);
  return {
    action: 'retry',
    delayMs: Math.min(policy.maxRetryDelayMs, Math.max(jittered, result.retryAfterMs ?? 0)),
  };
}

/**
 * What a request's answer says about the server, for the circuit breaker:
 *
 * - `up`: it answered and meant it (2xx, or a 4xx about the request).
 * - `overloaded`: a 429 or 503 with `Retry-After` — alive, asking the
 *   sender to slow down and saying when to come back. The sender slows
 *   (one batch out until one is taken) and retries, but this is no sign of
 *   an outage: a busy server answers every batch past its admission limit
 *   so (503 `WEFT_OVERLOADED`), and counting those opened the circuit after
 *   five of them and sent every record to the outbox while the server was
 *   up.
 * - `failing`: no answer (connection refused or reset, a timeout), a 5xx
 *   or 408 without `Retry-After`, a 2xx whose body does not parse — what
 *   opens the circuit after `failureThreshold` in a row.
 */
export type ServerSignal = 'up' | 'overloaded' | 'failing';

/** The one rule for what an answer tells the circuit; see {@link ServerSignal}. */
export function serverSignal(result: SendResult): ServerSignal {
  if (result.status !== 'retryable') return 'up';
  const slowDown = result.statusCode === 429 || result.statusCode === 503;
  return slowDown && result.retryAfterMs !== undefined ? 'overloaded' : 'failing';
}

/**
 * Whether a retryable answer spends one of a record's `maxAttempts`: a real
 * failure (no answer, a timeout, a 5xx or 408 without `Retry-After`) does;
 * an overloaded server's 429/503 with `Retry-After` does not. That server is
 * up and said when to come back, so a long overload slows the sender (the
 * delay it asks for, one batch out) instead of sending its batches to the
 * outbox as if they had failed. What bounds such a wait is a flush's
 * deadline (`flush({ timeoutMs })`: what is still held then goes to the
 * outbox) and the send slots (a refused batch keeps its slot while it
 * waits); neither the attempts nor the retry budget do.
 */
export function spendsAttempt(result: Extract<SendResult, { status: 'retryable' }>): boolean {
  return serverSignal(result) !== 'overloaded';
}

/**
 * After a 4xx, for a batch of `items` items (1 for a single record):
 *
 * - `drop` item `index`: the server named it invalid (400/422 with an index,
 *   or the only item of a 400/413/422): report it once, never send it again,
 *   send the rest at once.
 * - `split`: 400/413/422 naming no item: halve the batch until the bad item
 *   stands alone (O(log n) extra requests per bad item).
 * - `keep`: not the record's fault (401/403, an unexpected 4xx): keep it
 *   (the outbox) and stop sending until the server takes it.
 */
export type RejectionVerdict =
  | { action: 'drop'; index: number; tooLarge: boolean }
  | { action: 'split' }
  | { action: 'keep'; auth: boolean };

/** The one rule for isolating a rejected item; see {@link RejectionVerdict}. */
export function rejectionVerdict(
  statusCode: number,
  index: number | undefined,
  items: number,
): RejectionVerdict {
  const invalid = statusCode === 400 || statusCode === 422;
  if (invalid && index !== undefined && Number.isInteger(index) && index >= 0 && index < items) {
    return { action: 'drop', index, tooLarge: false };
  }
  if (invalid || statusCode === 413) {
    return items <= 1 ? { action: 'drop', index: 0, tooLarge: statusCode === 413 } : { action: 'split' };
  }
  return { action: 'keep', auth: statusCode === 401 || statusCode === 403 };
}

/** The two halves {@link rejectionVerdict} `split` asks for, the first half last (a work stack pops it first). */
export function splitInHalves<T>(items: readonly T[]): [T[], T[]] {
  const middle = Math.ceil(items.length / 2);
  return [items.slice(middle), items.slice(0, middle)];
}
