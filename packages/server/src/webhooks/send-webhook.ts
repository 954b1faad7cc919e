/** What one POST to a webhook came to. */
export type WebhookOutcome =
  | { delivered: true; status: number }
  /** `retryAfterMs`: what the receiver's Retry-After asked for, if anything. */
  | { delivered: false; status: number | null; error: string; retryAfterMs?: number };

/**
 * POSTs a JSON body to a webhook with a timeout; any 2xx delivers. Never
 * throws: a refused connection, a timeout or an error status is an outcome.
 * The response body is read and dropped (a slow one counts against the timeout).
 */
export async function sendWebhook(url: string, body: unknown, timeoutMs: number): Promise<WebhookOutcome> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'weft-alerts' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    await response.arrayBuffer();
    if (response.ok) return { delivered: true, status: response.status };
    const retryAfter = Number(response.headers.get('retry-after'));
    return {
      delivered: false,
      status: response.status,
      error: `answered ${response.status}`,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1_000 } : {}),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const name = (error as Error).name;
    return {
      delivered: false,
      status: null,
      error:
        name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (cause ?? (error as Error).message),
    };
  }
}
