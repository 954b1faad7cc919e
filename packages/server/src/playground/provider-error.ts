import { hasCode, WeftError } from '@weft/protocol';

/**
 * A provider refused or failed a playground run (a 4xx such as 429, a 5xx,
 * a network failure, a malformed stream). Streamed to the browser as the
 * run's `error` event and recorded as the run's exception; the message
 * names the provider and never holds its key.
 */
export class ProviderError extends WeftError {
  /** The provider's HTTP status, when it answered one. */
  readonly statusCode: number | undefined;

  constructor(message: string, statusCode?: number, cause?: unknown) {
    super({ code: 'WEFT_PROVIDER_ERROR', message, ...(cause === undefined ? {} : { cause }) });
    this.statusCode = statusCode;
  }

  static override isInstance(value: unknown): value is ProviderError {
    return hasCode(value, 'WEFT_PROVIDER_ERROR');
  }
}

/** `text` with every occurrence of `secret` replaced, so no error text carries a key. */
export function redactSecret(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('[redacted]');
}

/** The provider's own message from an error body (`{ error: { message } }`), else the body's first 300 characters. */
export function providerMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof parsed.error === 'string'
        ? parsed.error
        : typeof parsed.error?.message === 'string'
          ? parsed.error.message
          : parsed.message;
    if (typeof message === 'string') return message;
  } catch {
    // Not JSON: the text itself.
  }
  return body.slice(0, 300);
}
