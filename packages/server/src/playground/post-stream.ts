import { ProviderError, providerMessage, redactSecret } from './provider-error.js';
import { type SseEvent, sseEvents } from './sse-events.js';

/**
 * POSTs a JSON body and yields the server-sent events of the answer. A
 * status other than 2xx, or a network failure, throws {@link ProviderError}
 * naming the provider, with its message and never the key.
 */
export async function* postStream(options: {
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  secret: string;
  signal: AbortSignal;
}): AsyncGenerator<SseEvent> {
  const { provider, url, headers, body, secret, signal } = options;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    const reason = redactSecret(
      (error as Error)?.cause instanceof Error
        ? (error as { cause: Error }).cause.message
        : String((error as Error)?.message),
      secret,
    );
    throw new ProviderError(
      `Could not reach ${provider} (${reason}); check its base URL and that it is running.`,
    );
  }
  if (!response.ok || response.body === null) {
    const text = await response.text().catch(() => '');
    const message = redactSecret(providerMessage(text), secret);
    throw new ProviderError(`${provider} answered ${response.status}: ${message}`, response.status);
  }
  yield* sseEvents(response.body);
}
