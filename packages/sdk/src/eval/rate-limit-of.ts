import { parseRetryAfter } from '../transport/index.js';

/** What a rate-limit error says about when to try again. */
export interface RateLimitInfo {
  /** How long the server asked us to wait, when it said. */
  retryAfterMs: number | undefined;
}

/**
 * Reads a thrown value as a rate limit, the way provider SDKs shape them:
 * HTTP status 429 in `status`, `statusCode` or `response.status`, or any
 * error carrying `retryAfterMs` (ms), `retryAfter` (seconds, or an HTTP
 * `Retry-After` string) or a `retry-after` header in `headers` (a plain
 * object or a `Headers`). `undefined` when it is not a rate limit.
 */
export function rateLimitOf(error: unknown, nowMs = Date.now()): RateLimitInfo | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  try {
    const e = error as Record<string, unknown>;
    const status = e.status ?? e.statusCode ?? (e.response as { status?: unknown } | undefined)?.status;
    const retryAfterMs = retryAfterOf(e, nowMs);
    if (status !== 429 && retryAfterMs === undefined) return undefined;
    return { retryAfterMs };
  } catch {
    // A hostile error (throwing getter, revoked proxy) is not a rate limit.
    return undefined;
  }
}

function retryAfterOf(e: Record<string, unknown>, nowMs: number): number | undefined {
  if (typeof e.retryAfterMs === 'number' && e.retryAfterMs >= 0) return e.retryAfterMs;
  if (typeof e.retryAfter === 'number' && e.retryAfter >= 0) return e.retryAfter * 1_000;
  if (typeof e.retryAfter === 'string') return parseRetryAfter(e.retryAfter, nowMs);
  const headers = e.headers ?? (e.response as { headers?: unknown } | undefined)?.headers;
  if (typeof headers !== 'object' || headers === null) return undefined;
  const value =
    typeof (headers as Headers).get === 'function'
      ? (headers as Headers).get('retry-after')
      : (headers as Record<string, unknown>)['retry-after'];
  return typeof value === 'string' ? parseRetryAfter(value, nowMs) : undefined;
}
