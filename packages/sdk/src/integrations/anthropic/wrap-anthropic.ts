import { describeValue } from '../../datasets/index.js';
import { InvalidClientError } from '../../errors/index.js';
import { traceMethod } from '../traced-method.js';
import { parseWrapOptions, type WrapClientOptions } from '../wrap-options.js';
import { MessageAccumulator } from './message-accumulator.js';

function isAnthropicClient(value: unknown): value is { messages: object } {
  if (typeof value !== 'object' || value === null) return false;
  const messages = (value as { messages?: { create?: unknown } }).messages;
  return typeof messages?.create === 'function';
}

/**
 * Traces an `@anthropic-ai/sdk` client: `messages.create` (streamed or not)
 * and `messages.stream()` (which goes through it), each call an op named
 * `anthropic.messages.create` under the caller's current call, with the
 * model, usage (cache reads and writes counted as input) and, for streams,
 * the assembled message and time to first token. Returns the same client:
 * same class, same methods, same values and errors. Wrapping it again
 * changes nothing.
 *
 * @example
 * const anthropic = wrapAnthropic(new Anthropic());
 * @throws {InvalidClientError} when `client` is not an Anthropic client
 */
export function wrapAnthropic<T extends object>(client: T, options?: WrapClientOptions): T {
  if (!isAnthropicClient(client)) {
    throw new InvalidClientError(
      'wrapAnthropic',
      'an Anthropic client (new Anthropic() from the `@anthropic-ai/sdk` package)',
      describeValue(client),
    );
  }
  const opts = parseWrapOptions('wrapAnthropic', options);
  traceMethod(
    client.messages,
    'create',
    { name: 'anthropic.messages.create', streamAccumulator: () => new MessageAccumulator() },
    opts,
  );
  return client;
}
